import type { Locale } from '../../domain/locale.ts'

// The words of an invoice's and a credit note's PDF (invoice-pdf.ts), in the account's language.
// The reverse-charge note is the mention art. 226 (11a) of Directive 2006/112/EC asks for, in
// each language's usual wording.

export type InvoiceTexts = {
  invoice: string
  creditNote: string
  number: string
  issued: string
  refersTo: string
  seller: string
  buyer: string
  vatNumber: string
  campaign: string
  day: string
  billboard: string
  plays: string
  impressions: string
  unitPrice: string
  amount: string
  budgetCap: string
  net: string
  vat: (rate: string) => string
  gross: string
  reverseCharge: string
  outsideEu: string
  paid: string
  refunded: string
}

export const INVOICE_TEXTS: Record<Locale, InvoiceTexts> = {
  en: {
    invoice: 'Invoice',
    creditNote: 'Credit note',
    number: 'Number',
    issued: 'Date of issue',
    refersTo: 'Refers to invoice',
    seller: 'Seller',
    buyer: 'Billed to',
    vatNumber: 'VAT number',
    campaign: 'Campaign',
    day: 'Day of the plays',
    billboard: 'Billboard',
    plays: 'Plays',
    impressions: 'Impressions',
    unitPrice: 'Price per play',
    amount: 'Amount',
    budgetCap: "Within the campaign's budget",
    net: 'Total excluding VAT',
    vat: (rate) => `VAT ${rate}`,
    gross: 'Total',
    reverseCharge:
      'Reverse charge: VAT to be accounted for by the customer (Article 196, Directive 2006/112/EC).',
    outsideEu:
      'VAT not applicable: services supplied outside the EU (Article 59, Directive 2006/112/EC).',
    paid: 'Paid by card.',
    refunded: 'Refunded to the card.',
  },
  fr: {
    invoice: 'Facture',
    creditNote: 'Avoir',
    number: 'Numéro',
    issued: "Date d'émission",
    refersTo: 'Se rapporte à la facture',
    seller: 'Vendeur',
    buyer: 'Facturé à',
    vatNumber: 'N° de TVA',
    campaign: 'Campagne',
    day: 'Jour des diffusions',
    billboard: 'Écran',
    plays: 'Diffusions',
    impressions: 'Impressions',
    unitPrice: 'Prix par diffusion',
    amount: 'Montant',
    budgetCap: 'Dans la limite du budget de la campagne',
    net: 'Total HT',
    vat: (rate) => `TVA ${rate}`,
    gross: 'Total TTC',
    reverseCharge:
      'Autoliquidation : TVA due par le preneur (article 196 de la directive 2006/112/CE).',
    outsideEu:
      "TVA non applicable : prestation hors de l'UE (article 59 de la directive 2006/112/CE).",
    paid: 'Payée par carte.',
    refunded: 'Remboursé sur la carte.',
  },
  de: {
    invoice: 'Rechnung',
    creditNote: 'Gutschrift',
    number: 'Nummer',
    issued: 'Rechnungsdatum',
    refersTo: 'Bezieht sich auf Rechnung',
    seller: 'Verkäufer',
    buyer: 'Rechnungsempfänger',
    vatNumber: 'USt-IdNr.',
    campaign: 'Kampagne',
    day: 'Tag der Ausspielungen',
    billboard: 'Bildschirm',
    plays: 'Ausspielungen',
    impressions: 'Impressionen',
    unitPrice: 'Stückpreis',
    amount: 'Betrag',
    budgetCap: 'Im Rahmen des Kampagnenbudgets',
    net: 'Summe netto',
    vat: (rate) => `USt. ${rate}`,
    gross: 'Gesamtbetrag',
    reverseCharge:
      'Steuerschuldnerschaft des Leistungsempfängers (Artikel 196 der Richtlinie 2006/112/EG).',
    outsideEu:
      'Nicht steuerbar: Leistung außerhalb der EU (Artikel 59 der Richtlinie 2006/112/EG).',
    paid: 'Per Karte bezahlt.',
    refunded: 'Auf die Karte erstattet.',
  },
}
