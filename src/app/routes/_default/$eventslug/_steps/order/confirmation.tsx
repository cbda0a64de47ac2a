import { createFileRoute } from '@tanstack/react-router'
import { ConfirmationPage } from '../../../../../features/confirmation/confirmation-page'

export const Route = createFileRoute('/_default/$eventslug/_steps/order/confirmation')({
  component: ConfirmationPage,
})
