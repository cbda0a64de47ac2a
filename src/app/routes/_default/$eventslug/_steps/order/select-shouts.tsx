import { createFileRoute } from '@tanstack/react-router'
import { SelectShoutsPage } from '../../../../../features/shouts/select-shouts-page'

export const Route = createFileRoute('/_default/$eventslug/_steps/order/select-shouts')({
  component: SelectShoutsPage,
})
