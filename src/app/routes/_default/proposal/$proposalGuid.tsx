import { createFileRoute } from '@tanstack/react-router'
import { ProposalPage } from '../../../features/advertisers/proposal-page'

// Readable without an account (the link to share); accepting it needs the owner signed in.
export const Route = createFileRoute('/_default/proposal/$proposalGuid')({
  component: ProposalPage,
})
