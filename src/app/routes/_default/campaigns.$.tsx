import { createFileRoute } from '@tanstack/react-router'
import { CampaignsArea } from '../../features/advertisers/campaigns-area'

// `/campaigns`, `/campaigns/new` and `/campaigns/{id}`: one route whose page is its own chunk (a
// route less in the shop's first chunk, which sits at its budget: tests/e2e/budget.spec.ts).
export const Route = createFileRoute('/_default/campaigns/$')({
  component: CampaignsArea,
})
