import type { ButtonHTMLAttributes, ReactNode } from 'react'
import { useHydrated } from '../lib/hydration'

// spec §2 "Buttons": the types, sizes, sides, text colours and icons of the shop's button.
export type ButtonType =
  | 'default'
  | 'disabled'
  | 'loading'
  | 'orange'
  | 'black'
  | 'adomni'
  | 'pink'
  | 'smoke'
  | 'link'
  | 'white'
  | 'green'
  | 'add'
  | 'dates'
  | 'home'
export type ButtonSize = 'xsmall' | 'small' | 'medium' | 'large' | 'xlarge' | 'field'
export type ButtonSide = 'left' | 'center' | 'right'
export type ButtonTextColor =
  | 'white'
  | 'orange'
  | 'black'
  | 'grey'
  | 'green'
  | 'darkgrey'
  | 'pink'
  | 'none'
export type ButtonIcon = 'upload' | 'download' | 'circle' | 'none'

export type ButtonProps = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type'> & {
  kind?: ButtonType
  size?: ButtonSize
  side?: ButtonSide
  textColor?: ButtonTextColor
  icon?: ButtonIcon
  htmlType?: 'button' | 'submit'
  /** shown to screen readers while loading */
  loadingLabel?: string
  children: ReactNode
}

const ICONS: Record<Exclude<ButtonIcon, 'none'>, ReactNode> = {
  upload: (
    <path d="M12 16V4m0 0-5 5m5-5 5 5M4 20h16" fill="none" stroke="currentColor" strokeWidth="2" />
  ),
  download: (
    <path d="M12 4v12m0 0-5-5m5 5 5-5M4 20h16" fill="none" stroke="currentColor" strokeWidth="2" />
  ),
  circle: <circle cx="12" cy="12" r="7" fill="none" stroke="currentColor" strokeWidth="2" />,
}

/** Disabled and non-clickable while its type is disabled or loading; loading shows a spinner. Also
 * disabled in the server's HTML until the app has taken it over: a tap on a button with no
 * handler yet would be lost without a sign. */
export function Button({
  kind = 'default',
  size = 'medium',
  side = 'center',
  textColor = 'none',
  icon = 'none',
  htmlType = 'button',
  loadingLabel,
  disabled,
  className,
  children,
  onClick,
  ...rest
}: ButtonProps) {
  const hydrated = useHydrated()
  const inert = kind === 'disabled' || kind === 'loading' || disabled === true || !hydrated
  const classes = [
    'btn',
    `btn--${kind}`,
    `btn--${size}`,
    `btn--side-${side}`,
    textColor !== 'none' ? `btn--text-${textColor}` : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ')
  return (
    <button
      {...rest}
      type={htmlType}
      className={classes}
      disabled={inert}
      aria-busy={kind === 'loading' || undefined}
      onClick={inert ? undefined : onClick}
    >
      {kind === 'loading' ? (
        <span className="btn__spinner" role="status" aria-label={loadingLabel} />
      ) : null}
      {icon !== 'none' ? (
        <svg className="btn__icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
          {ICONS[icon]}
        </svg>
      ) : null}
      <span className="btn__label">{children}</span>
    </button>
  )
}
