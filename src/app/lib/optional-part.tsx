import { type ComponentType, lazy, type ReactElement, useEffect, useState } from 'react'
import { onReconnect } from './reconnect'

const Nothing = () => null

/**
 * A part of the page loaded lazily that the page can do without (the banners, the footer, the
 * modals; an error page, whose fallback says the shopper is offline). When its code cannot come
 * (offline before the service worker holds the app, the first seconds of a first visit) the
 * fallback is shown instead, quietly, and the code is asked for again once the browser is back
 * online and the shop answers (reconnect.ts). Render it inside a Suspense boundary, as any lazy component.
 */
export function optionalPart<P extends object>(
  load: () => Promise<ComponentType<P>>,
  Fallback: ComponentType<P> = Nothing,
): (props: P) => ReactElement {
  let failed = false
  const attempt = () =>
    lazy(() =>
      load().then(
        (Part) => ({ default: Part }),
        () => {
          failed = true
          return { default: Fallback }
        },
      ),
    )
  let Part = attempt()
  return function OptionalPart(props: P) {
    const [, retried] = useState(0)
    useEffect(
      () =>
        onReconnect(() => {
          if (!failed) return
          failed = false
          Part = attempt()
          retried((n) => n + 1)
        }),
      [],
    )
    return <Part {...props} />
  }
}
