import type {
  ImageSource,
  ParsedTemplate,
  PlaceholderValues,
  TemplateNode,
  TextPart,
} from '../catalogue/template-html.ts'

// A parsed template (catalogue/template-html.ts) with the shopper's values, as satori's element tree: the
// values go in as text only, never as markup.

/** Satori's element shape (a React element without React). */
export type SatoriElement = {
  type: string
  key: null
  props: {
    style?: Record<string, string | number>
    src?: string
    children?: string | SatoriElement | (string | SatoriElement)[]
  }
}

export type TreeOptions = {
  /** Turns a CSS font-family value into the font-family list of loaded fonts to try, in order. */
  fontStack: (cssValue: string | undefined) => string
}

export type ResolvedImages = {
  /** The shopper's processed photo as a data URI; null when the template has none. */
  photoDataUri: string | null
}

function resolveImage(source: ImageSource, images: ResolvedImages): string {
  if ('dataUri' in source) return source.dataUri
  // renderTemplateSvg refuses a photo template without a photo (template_needs_photo) before this
  if (!images.photoDataUri) throw new Error('no photo for the template to place')
  return images.photoDataUri
}

function onlyOrAll(
  children: (string | SatoriElement)[],
): string | SatoriElement | (string | SatoriElement)[] {
  const [first] = children
  return children.length === 1 && first !== undefined ? first : children
}

function textOf(parts: TextPart[], values: PlaceholderValues): string {
  // The values are only ever concatenated into a string: satori draws strings as glyphs.
  return parts.map((part) => ('literal' in part ? part.literal : values[part.placeholder])).join('')
}

/**
 * Builds satori's element tree for a parsed template with the shopper's values. The whole design sits
 * in a root box of exactly width x height.
 */
export function toSatoriTree(
  template: ParsedTemplate,
  values: PlaceholderValues,
  images: ResolvedImages,
  size: { width: number; height: number },
  options: TreeOptions,
): SatoriElement {
  const convert = (node: TemplateNode): string | SatoriElement => {
    if (node.kind === 'text') return textOf(node.parts, values)
    const style: Record<string, string | number> = { ...node.style }
    if (node.style.fontFamily !== undefined)
      style.fontFamily = options.fontStack(node.style.fontFamily)
    if (node.backgroundImage) {
      style.backgroundImage = `url(${resolveImage(node.backgroundImage, images)})`
      style.backgroundSize ??= 'cover'
    }
    if (node.tag === 'img') {
      return {
        type: 'img',
        key: null,
        props: { style, src: resolveImage(node.src ?? { photo: true }, images) },
      }
    }
    const children = node.children.map(convert)
    // satori needs an explicit flex box around more than one child; HTML authors rarely write it.
    if (children.length > 1 && style.display === undefined) style.display = 'flex'
    // A message keeps the shopper's line breaks (spec §1: multiline message).
    const keepsLines = node.children.some(
      (child) =>
        child.kind === 'text' &&
        child.parts.some(
          (part) => 'placeholder' in part && part.placeholder === 'multilineMessage',
        ),
    )
    if (keepsLines && style.whiteSpace === undefined) style.whiteSpace = 'pre-wrap'
    return {
      type: node.tag,
      key: null,
      props: { style, children: onlyOrAll(children) },
    }
  }
  const children = template.nodes.map(convert)
  return {
    type: 'div',
    key: null,
    props: {
      style: {
        display: 'flex',
        width: size.width,
        height: size.height,
        overflow: 'hidden',
        fontFamily: options.fontStack(undefined),
      },
      children: onlyOrAll(children),
    },
  }
}
