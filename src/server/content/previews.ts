// Template previews: the template list shows each design before the shopper has a photo or texts
// (spec §2, Select Template). A catalogue may point previewImageUrl at a picture of its own; this renders
// one from the template itself, with sample texts and a sample photo, so a preview never drifts from
// what the billboard will show. Served at GET {base}/previews/{templateId}.png.
import { createHash } from 'node:crypto'
import sharp from 'sharp'
import type { TemplateRow } from './generate.ts'
import { parsedTemplate } from './generate.ts'
import { renderTemplatePng } from './render.ts'

export const PREVIEW_VALUES = {
  buyerName: 'Alex',
  recipientName: 'Sam',
  multilineMessage: 'Happy birthday!\nWith love',
}

let samplePhoto: Promise<Buffer> | null = null

/** A neutral stand-in photo (a sky gradient and a sun), drawn here so nothing is fetched or shipped. */
function sample(): Promise<Buffer> {
  samplePhoto ??= sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600">' +
        '<defs><linearGradient id="s" x1="0" y1="0" x2="0" y2="1">' +
        '<stop offset="0" stop-color="#4fc3f7"/><stop offset="1" stop-color="#fff3e0"/></linearGradient></defs>' +
        '<rect width="800" height="600" fill="url(#s)"/>' +
        '<circle cx="560" cy="220" r="90" fill="#ffca28"/>' +
        '<path d="M0 600 L0 430 Q200 330 400 430 T800 410 L800 600 Z" fill="#66bb6a"/></svg>',
    ),
  )
    .jpeg({ quality: 85 })
    .toBuffer()
  return samplePhoto
}

const cache = new Map<string, { version: string; png: Buffer }>()

/** The preview PNG of a template at its own size; re-rendered when the template's html or size change. */
export async function templatePreview(template: TemplateRow): Promise<Buffer> {
  const version = createHash('sha256')
    .update(`${template.widthPx}x${template.heightPx}\n${template.html}`)
    .digest('base64url')
  const cached = cache.get(template.id)
  if (cached?.version === version) return cached.png
  const parsed = parsedTemplate(template)
  const png = await renderTemplatePng({
    template: parsed,
    values: PREVIEW_VALUES,
    width: template.widthPx,
    height: template.heightPx,
    photo: parsed.usesPhoto ? await sample() : null,
    photoCacheKey: 'preview-sample-photo',
  })
  cache.set(template.id, { version, png })
  return png
}
