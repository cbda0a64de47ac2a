import { createFileRoute } from '@tanstack/react-router'
import { ProposalError } from '../../../features/advertisers/page-error'
import { ProposalPage } from '../../../features/advertisers/proposal-page'

// Readable without an account (the link to share); accepting it needs the owner signed in. The
// loader's code comes with the page's, never with the shop's first screen.
export const Route = createFileRoute('/_default/proposal/$proposalGuid')({
  loader: async ({ params, abortController }) =>
    (await import('../../../features/advertisers/advertiser-loaders')).proposalLoader(
      params.proposalGuid,
      abortController.signal,
    ),
  component: ProposalPage,
  errorComponent: ProposalError,
})
