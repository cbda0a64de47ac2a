import { createFileRoute, redirect } from '@tanstack/react-router'

// spec §2: /{eventslug} is the same as /{eventslug}/design/location.
export const Route = createFileRoute('/_default/$eventslug/')({
  beforeLoad: ({ params, location }) => {
    throw redirect({
      to: '/$eventslug/design/location',
      params: { eventslug: params.eventslug },
      search: location.search,
      replace: true,
    })
  },
})
