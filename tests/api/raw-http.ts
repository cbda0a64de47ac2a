// A request written byte by byte on a socket of its own: how a body arrives is up to the test.
import { connect } from 'node:net'

/** One HTTP/1.1 exchange on a socket of its own, the request written in pieces a moment apart. */
export async function rawExchange(
  url: string,
  pieces: string[],
): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url)
  const socket = connect(Number(port), hostname)
  const received: Buffer[] = []
  socket.on('data', (chunk: Buffer) => received.push(chunk))
  const closed = new Promise<void>((resolve, reject) => {
    socket.on('end', resolve)
    socket.on('error', reject)
  })
  await new Promise<void>((resolve) => socket.on('connect', resolve))
  for (const [i, piece] of pieces.entries()) {
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 50))
    socket.write(piece)
  }
  await closed
  const text = Buffer.concat(received).toString('utf8')
  const [head = '', ...rest] = text.split('\r\n\r\n')
  let body = rest.join('\r\n\r\n')
  if (/transfer-encoding: chunked/i.test(head)) {
    let plain = ''
    for (let at = 0; ; ) {
      const eol = body.indexOf('\r\n', at)
      const size = Number.parseInt(body.slice(at, eol), 16)
      if (!size) break
      plain += body.slice(eol + 2, eol + 2 + size)
      at = eol + 2 + size + 2
    }
    body = plain
  }
  return { status: Number(head.split(' ')[1]), body }
}
