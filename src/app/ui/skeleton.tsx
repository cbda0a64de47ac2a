/** Grey placeholders where a list is still loading. */
export function Skeleton({ height = 72, count = 3 }: { height?: number; count?: number }) {
  return (
    <div className="skeleton-list" aria-hidden="true">
      {Array.from({ length: count }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <div key={i} className="skeleton" style={{ height }} />
      ))}
    </div>
  )
}
