// The shop's own pages (src/server/pages/): the operator's texts, in the shopper's language, at
// /s/{page}/{locale} (/s/{page}: the visitor's language). The server's, without the app, like the
// privacy page /s/privacy/{locale} ("Your data"). The menu, the footer and the review step's consents
// link to them (src/app/ui/marketing-pages.ts).

export const SHOP_PAGES = [
  'about',
  'faqs',
  'contact',
  'press',
  'terms',
  'privacy-policy',
  'content-policy',
] as const
export type ShopPage = (typeof SHOP_PAGES)[number]

export const isShopPage = (value: string): value is ShopPage =>
  (SHOP_PAGES as readonly string[]).includes(value)

/** A shop page's address in a language: /s/terms/fr. */
export const shopPagePath = (page: ShopPage, locale: string): string => `/s/${page}/${locale}`
