/** The seller a production shop names on its invoices (every SELLER_* and INVOICE_PREFIX is required in prod). */
export const PROD_SELLER = {
  SELLER_LEGAL_NAME: 'Shouts SAS',
  SELLER_ADDRESS: '1 rue de Rivoli|75001 Paris',
  SELLER_COUNTRY: 'FR',
  SELLER_VAT_NUMBER: 'FR40303265045',
  SELLER_VAT_RATE: '20',
  INVOICE_PREFIX: 'SH-',
}
