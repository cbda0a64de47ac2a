// A PDF read back as a person's reader would show it: its text, through pdf.js (the Node build).

/** The PDF an endpoint answers: its media type and bytes. */
export async function pdfOf(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
): Promise<{ status: number; type: string | null; bytes: Uint8Array }> {
  const res = await fetch(`${baseUrl}/api/v1${path}`, { headers })
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    bytes: new Uint8Array(await res.arrayBuffer()),
  }
}

/** The text of every page, its pieces joined by spaces. */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs')
  const doc = await pdfjs.getDocument({ data: bytes, isEvalSupported: false }).promise
  const texts: string[] = []
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent()
    texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '))
  }
  await doc.destroy()
  return texts.join('\n')
}
