import { createFileRoute } from '@tanstack/react-router'
import { HomePage } from '../features/home/home-page'

// spec §2: the home page, home layout (content only, no header).
export const Route = createFileRoute('/')({
  component: HomePage,
})
