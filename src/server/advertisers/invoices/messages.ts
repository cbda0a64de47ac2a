// The words of an invoice's and a credit note's PDF (pdf.ts), in English (translations, in the
// account's language: the server's Lingui catalogs, src/locale/server). The reverse-charge note is the
// mention art. 226 (11a) of Directive 2006/112/EC asks for, in each language's usual wording.
// Each message is a descriptor Lingui extracts (`npm run lingui:extract`); say() formats it.

export const INVOICE_MESSAGES = {
  invoice: /*i18n*/ { id: 'invoice.invoice', message: 'Invoice' },
  creditNote: /*i18n*/ { id: 'invoice.creditNote', message: 'Credit note' },
  number: /*i18n*/ { id: 'invoice.number', message: 'Number' },
  issued: /*i18n*/ { id: 'invoice.issued', message: 'Date of issue' },
  refersTo: /*i18n*/ { id: 'invoice.refersTo', message: 'Refers to invoice' },
  seller: /*i18n*/ { id: 'invoice.seller', message: 'Seller' },
  buyer: /*i18n*/ { id: 'invoice.buyer', message: 'Billed to' },
  vatNumber: /*i18n*/ { id: 'invoice.vatNumber', message: 'VAT number' },
  campaign: /*i18n*/ { id: 'invoice.campaign', message: 'Campaign' },
  day: /*i18n*/ { id: 'invoice.day', message: 'Day of the plays' },
  billboard: /*i18n*/ { id: 'invoice.billboard', message: 'Billboard' },
  plays: /*i18n*/ { id: 'invoice.plays', message: 'Plays' },
  impressions: /*i18n*/ { id: 'invoice.impressions', message: 'Impressions' },
  unitPrice: /*i18n*/ { id: 'invoice.unitPrice', message: 'Price per play' },
  amount: /*i18n*/ { id: 'invoice.amount', message: 'Amount' },
  budgetCap: /*i18n*/ { id: 'invoice.budgetCap', message: "Within the campaign's budget" },
  net: /*i18n*/ { id: 'invoice.net', message: 'Total excluding VAT' },
  vat: /*i18n*/ { id: 'invoice.vat', message: 'VAT {rate}' },
  gross: /*i18n*/ { id: 'invoice.gross', message: 'Total' },
  reverseCharge: /*i18n*/ {
    id: 'invoice.reverseCharge',
    message:
      'Reverse charge: VAT to be accounted for by the customer (Article 196, Directive 2006/112/EC).',
  },
  outsideEu: /*i18n*/ {
    id: 'invoice.outsideEu',
    message:
      'VAT not applicable: services supplied outside the EU (Article 59, Directive 2006/112/EC).',
  },
  paid: /*i18n*/ { id: 'invoice.paid', message: 'Paid by card.' },
  refunded: /*i18n*/ { id: 'invoice.refunded', message: 'Refunded to the card.' },
} as const
