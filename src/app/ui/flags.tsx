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

export function Flag({ code }: { code: FlagCode }) {
  switch (code) {
    case 'us':
      return (
        <svg width={24} height={16} viewBox="0 0 24 16" aria-hidden="true" className="flag">
          <rect width="24" height="16" fill="#b22234" />
          {[1, 3, 5, 7, 9, 11].map((row) => (
            <rect key={row} y={(row * 16) / 13} width="24" height={16 / 13} fill="#fff" />
          ))}
          <rect width="10" height={(7 * 16) / 13} fill="#3c3b6e" />
        </svg>
      )
    case 'fr':
      return (
        <svg width={24} height={16} viewBox="0 0 24 16" aria-hidden="true" className="flag">
          <rect width="8" height="16" fill="#002395" />
          <rect x="8" width="8" height="16" fill="#fff" />
          <rect x="16" width="8" height="16" fill="#ed2939" />
        </svg>
      )
    case 'de':
      return (
        <svg width={24} height={16} viewBox="0 0 24 16" aria-hidden="true" className="flag">
          <rect width="24" height="5.34" fill="#000" />
          <rect y="5.33" width="24" height="5.34" fill="#dd0000" />
          <rect y="10.66" width="24" height="5.34" fill="#ffce00" />
        </svg>
      )
    default:
      return (
        <svg width={24} height={16} viewBox="0 0 24 16" aria-hidden="true" className="flag">
          <rect width="24" height="16" fill="#ccc" />
          <text x="12" y="12" fontSize="10" textAnchor="middle" fill="#555">
            ?
          </text>
        </svg>
      )
  }
}
