import type { ShopPage } from '../../contract/pages.ts'
import type { Locale } from '../../domain/locale.ts'
import { DE } from './defaults-de.ts'
import { EN } from './defaults-en.ts'
import { FR } from './defaults-fr.ts'

// The texts each shop page has until the operator writes their own: Markdown, true of any shop this
// code runs, naming the operator and their address from the configuration.

export type Operator = { operator: string; email: string }
export type PageDefaults = Record<ShopPage, (operator: Operator) => string>

export const PAGE_DEFAULTS: Record<Locale, PageDefaults> = { en: EN, fr: FR, de: DE }
