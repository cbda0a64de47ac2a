import * as v from 'valibot'

// The settings of the shop's own pages (About, FAQs, Contact, Press, the terms, the privacy and the
// content policies: src/server/pages/): who runs the shop, how to reach them, and the folder of the
// operator's texts. Part of the one schema (env.ts spreads these entries into it).

const optionalText = v.optional(v.pipe(v.string(), v.trim(), v.minLength(1)))

export const SHOP_PAGES_ENTRIES = {
  // The name of who runs the shop, as its pages and terms name it (the default texts say it)
  OPERATOR_NAME: v.optional(v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(200))),
  // The address shoppers write to (the Contact page); MAIL_FROM's address when unset
  OPERATOR_EMAIL: v.optional(
    v.pipe(v.string(), v.trim(), v.email('OPERATOR_EMAIL must be an e-mail address')),
  ),
  // A folder of the operator's texts, {en,fr,de}/{page}.md (docs/pages.md); the defaults without
  SHOP_PAGES_DIR: optionalText,
}
