import { createFileRoute } from '@tanstack/react-router'
import { CheckoutPage } from '../../../../../features/checkout/checkout-page'

export const Route = createFileRoute('/_default/$eventslug/_steps/order/checkout')({
  component: CheckoutPage,
})
