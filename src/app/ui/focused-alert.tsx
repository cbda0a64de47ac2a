import { type ReactNode, useEffect, useRef } from 'react'

/**
 * A refusal the shopper must see at once (a declined card, a promo code, times taken, the network
 * lost): announced (role="alert", aria-live), scrolled into the middle of the screen, clear of the
 * sticky action bar, and focused, so that on a phone the tap visibly did something. It takes the
 * focus when it appears and again whenever `focusKey` changes (the same message after a new try).
 */
export function FocusedAlert({
  children,
  className,
  focusKey,
}: {
  children: ReactNode
  className?: string
  focusKey?: string | number
}) {
  const ref = useRef<HTMLDivElement>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: focusKey is the trigger, not a value read
  useEffect(() => {
    const alert = ref.current
    if (!alert) return
    alert.scrollIntoView({ block: 'center' })
    alert.focus({ preventScroll: true })
  }, [focusKey])
  return (
    <div ref={ref} className={className} role="alert" aria-live="assertive" tabIndex={-1}>
      {children}
    </div>
  )
}
