import { type ImgHTMLAttributes, useState } from 'react'

/**
 * An image with its size fixed (no layout shift) that shows a drawn billboard placeholder when
 * the picture cannot load (offline, or missing from the catalogue).
 */
export function Picture({ className, alt, ...rest }: ImgHTMLAttributes<HTMLImageElement>) {
  const [failed, setFailed] = useState(false)
  if (failed) {
    return (
      <svg
        className={`${className ?? ''} picture--placeholder`}
        viewBox="0 0 160 100"
        role={alt ? 'img' : undefined}
        aria-label={alt || undefined}
        aria-hidden={alt ? undefined : true}
      >
        <rect width="160" height="100" fill="#efe9e1" />
        <rect x="30" y="18" width="100" height="48" rx="4" fill="#c2410c" opacity="0.85" />
        <rect x="38" y="28" width="60" height="8" rx="2" fill="#fff" opacity="0.9" />
        <rect x="38" y="42" width="44" height="6" rx="2" fill="#fff" opacity="0.7" />
        <rect x="76" y="66" width="8" height="26" fill="#8a7f75" />
      </svg>
    )
  }
  return <img {...rest} className={className} alt={alt} onError={() => setFailed(true)} />
}
