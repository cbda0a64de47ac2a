import { createFileRoute } from '@tanstack/react-router'
import { OpsApp } from '../ops/ops-app'

// The operators' console, `/ops/…` (and /fr/ops, /de/ops). One route: the route tree is in
// the shop's first chunk, which sits at its budget (tests/e2e/budget.spec.ts), so the console's pages
// are a table in its own chunk (src/app/ops/pages.tsx), with its catalog and its guard (enter.ts).
export const Route = createFileRoute('/ops/$')({
  beforeLoad: ({ location, abortController }) =>
    import('../ops/enter').then((m) => m.enter(location, abortController.signal)),
  component: OpsApp,
})
