import { createFileRoute } from '@tanstack/react-router'
import { CustomizePage } from '../../../../../features/customize/customize-page'

export const Route = createFileRoute('/_default/$eventslug/_steps/design/customize')({
  component: CustomizePage,
})
