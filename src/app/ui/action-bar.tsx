import type { ReactNode } from 'react'

/** The sticky bottom bar holding the step's main button. */
export function ActionBar({ children }: { children: ReactNode }) {
  return <div className="action-bar">{children}</div>
}
