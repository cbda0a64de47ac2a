import type { ReactNode } from 'react'

/** A message on the page: information, a success, or an error (read out at once). */
export function Notice({
  tone = 'info',
  id,
  children,
}: {
  tone?: 'info' | 'error' | 'success'
  id?: string
  children: ReactNode
}) {
  return (
    <div id={id} className={`notice notice--${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  )
}
