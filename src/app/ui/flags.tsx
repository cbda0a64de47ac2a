// spec §2 language switcher: en, fr, de map to the flags us, fr, de; any other locale is unknown.
export type FlagCode = 'us' | 'fr' | 'de' | 'unknown'

export function flagFor(locale: string): FlagCode {
  switch (locale) {
    case 'en':
      return 'us'
    case 'fr':
      return 'fr'
    case 'de':
      return 'de'
    default:
      return 'unknown'
  }
}

/** A flag, 24 by 16 px, drawn by the stylesheet (styles/app.css, .flag--us and the others). */
export function Flag({ code }: { code: FlagCode }) {
  return <span className={`flag flag--${code}`} aria-hidden="true" />
}
