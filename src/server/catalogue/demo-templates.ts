import type { CatalogueInput } from './format.ts'

// The demo catalogue's templates (demo-catalogue.ts), at the sizes of its billboards: banners of
// 1400×400 and screens of 1920×1080.

export const banner = { contentWidth: 1400, contentHeight: 400 }
export const screen = { contentWidth: 1920, contentHeight: 1080 }

// Template html is data rendered by the content service; it stays simple (flex boxes, inline styles)
// and uses only the four placeholders catalogue-format allows. The photo fills a box of its own (cut
// to it, as object-fit: cover does) and the shopper's words are set to fill the rest at the
// billboard's size (`font-size: fit`: the largest that fits, never under a readable minimum).
const photoHtml = (background: string, accent: string) =>
  `<div style="display:flex;width:100%;height:100%;background:${background};color:#ffffff;font-family:sans-serif">` +
  `<img src="{{photoUrl}}" style="width:38%;height:100%;object-fit:cover"/>` +
  `<div style="display:flex;flex-direction:column;justify-content:center;padding:4% 5%;flex:1">` +
  `<div style="font-size:fit 1.25;font-weight:700;line-height:1.1;color:${accent}">{{recipientName}}</div>` +
  `<div style="font-size:fit;line-height:1.15;white-space:pre-wrap">{{multilineMessage}}</div>` +
  `<div style="font-size:fit 0.75;line-height:1.2">— {{buyerName}}</div></div></div>`

// A video template is an overlay on the shopper's clip: transparent but for the caption band at the
// bottom (a full background would hide the clip the shopper paid to show).
const videoHtml = (band: string) =>
  `<div style="display:flex;flex-direction:column;justify-content:flex-end;width:100%;height:100%;color:#ffffff;font-family:sans-serif">` +
  `<div style="display:flex;flex-direction:column;padding:12px 32px;background:${band}">` +
  `<div style="font-size:40px;font-weight:700">{{recipientName}}</div>` +
  `<div style="font-size:30px;white-space:pre-wrap">{{multilineMessage}}</div>` +
  `<div style="font-size:24px">— {{buyerName}}</div></div></div>`

export const templates: NonNullable<CatalogueInput['templates']> = [
  {
    id: 'hearts',
    name: 'Hearts',
    names: { fr: 'Cœurs', de: 'Herzen' },
    html: photoHtml('#c2185b', '#ffd54f'),
    size: banner,
  },
  {
    id: 'sunshine',
    name: 'Sunshine',
    names: { fr: 'Soleil', de: 'Sonnenschein' },
    html: photoHtml('#f57c00', '#fff8e1'),
    size: banner,
  },
  {
    id: 'hearts-wide',
    name: 'Hearts (wide screen)',
    names: { fr: 'Cœurs (grand écran)', de: 'Herzen (Breitbild)' },
    html: photoHtml('#ad1457', '#ffd54f'),
    size: screen,
  },
  {
    id: 'postcard-wide',
    name: 'Postcard (wide screen)',
    names: { fr: 'Carte postale (grand écran)', de: 'Postkarte (Breitbild)' },
    html: photoHtml('#1565c0', '#e3f2fd'),
    size: screen,
  },
].map(({ id, name, names, html, size }) => ({
  id,
  name,
  names,
  types: ['photo' as const],
  mode: 'DynamicHtml',
  widthPx: size.contentWidth,
  heightPx: size.contentHeight,
  // The content service renders each template with sample texts and photo at this address.
  previewImageUrl: `/api/v1/content/previews/${id}.png`,
  examplePreviewVideoUrl: null,
  videoMaxLengthSeconds: null,
  html,
}))
templates.push(
  ...[
    {
      id: 'fireworks-video',
      name: 'Fireworks (video)',
      names: { fr: "Feu d'artifice (vidéo)", de: 'Feuerwerk (Video)' },
      html: videoHtml('rgba(0, 0, 0, 0.6)'),
      size: banner,
    },
    {
      id: 'starlight-video-wide',
      name: 'Starlight (video, wide screen)',
      names: { fr: 'Ciel étoilé (vidéo, grand écran)', de: 'Sternenhimmel (Video, Breitbild)' },
      html: videoHtml('rgba(26, 35, 126, 0.7)'),
      size: screen,
    },
  ].map(({ id, name, names, html, size }) => ({
    id,
    name,
    names,
    types: ['video' as const],
    mode: 'DynamicHtml',
    widthPx: size.contentWidth,
    heightPx: size.contentHeight,
    previewImageUrl: `/api/v1/content/previews/${id}.png`,
    // The content service makes a short sample clip of the template (once) at this address.
    examplePreviewVideoUrl: `/api/v1/content/previews/${id}.mp4`,
    videoMaxLengthSeconds: 15,
    html,
  })),
)
