import { useLingui } from '@lingui/react/macro'
import type { ReactNode } from 'react'

/**
 * The box a wide table scrolls in sideways (ops.css .ops-table-wrap), never the page: it takes the
 * keyboard's focus, so someone without a pointer scrolls it with the arrow keys, and is named so a
 * screen reader says what it holds.
 */
export function TableBox({ label, children }: { label?: string; children: ReactNode }) {
  const { t } = useLingui()
  return (
    <section
      className="ops-table-wrap"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1)
      tabIndex={0}
      aria-label={label ?? t`Table, scrolls sideways`}
    >
      {children}
    </section>
  )
}
