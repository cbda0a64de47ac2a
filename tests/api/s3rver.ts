import { createRequire } from 'node:module'

type S3rverInstance = { run(): Promise<{ port: number }>; close(): Promise<void> }
type S3rverClass = new (options: {
  address: string
  port: number
  silent: boolean
  directory: string
  configureBuckets: { name: string }[]
}) => S3rverInstance
// s3rver ships no types: its constructor is described above.
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass

export type Bucket = { endpoint: string; close(): Promise<void> }

/** s3rver, an S3-compatible server, on loopback with one bucket kept in `directory`. */
export async function startS3rver(directory: string, bucket: string): Promise<Bucket> {
  const s3 = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  })
  const { port } = await s3.run()
  return { endpoint: `http://127.0.0.1:${port}`, close: () => s3.close() }
}
