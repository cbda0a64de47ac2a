import { createFileRoute } from '@tanstack/react-router'
import { TemplatePage } from '../../../../../features/template/template-page'

export const Route = createFileRoute('/_default/$eventslug/_steps/design/template')({
  component: TemplatePage,
})
