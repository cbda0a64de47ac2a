// spec §3: the template mode a template has when the catalogue names none, and the one the shop asks
// the generators for.
export const DEFAULT_TEMPLATE_MODE = 'DynamicHtml'

// spec §3: a shout is a photo or a video.
export const CONTENT_TYPES = ['photo', 'video'] as const
export type ContentType = (typeof CONTENT_TYPES)[number]

// spec §9: the file types a shopper may upload. The server judges the type from the bytes; these
// lists name what the file picker offers and what the wrong-type message lists.
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'gif', 'png'] as const
export const VIDEO_EXTENSIONS = ['mp4', 'wav', 'mpg', 'avi', 'wmv'] as const

/** The content kind a file name's extension promises, or null for any other file. */
export function contentTypeOfFileName(fileName: string): ContentType | null {
  const extension = fileName.toLowerCase().split('.').at(-1) ?? ''
  if (!fileName.includes('.')) return null
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(extension)) return 'photo'
  if ((VIDEO_EXTENSIONS as readonly string[]).includes(extension)) return 'video'
  return null
}

/** The `accept` attribute of a file input for the kinds a template takes: '.jpg,.jpeg,…'. */
export function uploadAccept(types: readonly ContentType[]): string {
  const extensions = [
    ...(types.includes('photo') ? IMAGE_EXTENSIONS : []),
    ...(types.includes('video') ? VIDEO_EXTENSIONS : []),
  ]
  return extensions.map((e) => `.${e}`).join(',')
}

/** spec §3: an examplePreviewVideoUrl marks a video template. */
export function isVideoTemplate(template: { examplePreviewVideoUrl: string | null }): boolean {
  return Boolean(template.examplePreviewVideoUrl)
}
