declare module '*.po' {
  import type { Messages } from '@lingui/core'
  export const messages: Messages
}

// the two parts of a catalog (vite.config.ts catalogParts, src/locale/catalog-parts.ts)
declare module '*.po?first' {
  import type { Messages } from '@lingui/core'
  export const messages: Messages
}
declare module '*.po?rest' {
  import type { Messages } from '@lingui/core'
  export const messages: Messages
}
