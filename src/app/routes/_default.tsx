import { createFileRoute } from '@tanstack/react-router'
import { DefaultLayout } from '../features/shell/default-layout'

export const Route = createFileRoute('/_default')({
  component: DefaultLayout,
})
