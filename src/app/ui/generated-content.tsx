import { useLingui } from '@lingui/react/macro'
import type { GeneratedContent } from '../../contract/content'

/** The shopper's design as it will show on the billboard: the picture, or the video muted. */
export function GeneratedContentView({
  content,
}: {
  content: Pick<GeneratedContent, 'url' | 'type' | 'widthPx' | 'heightPx'>
}) {
  const { t } = useLingui()
  return content.type === 'video' ? (
    <video
      className="generated"
      src={content.url}
      controls
      muted
      playsInline
      width={content.widthPx}
      height={content.heightPx}
    />
  ) : (
    <img
      className="generated"
      src={content.url}
      alt={t`Your design as it will show on the billboard`}
      width={content.widthPx}
      height={content.heightPx}
    />
  )
}
