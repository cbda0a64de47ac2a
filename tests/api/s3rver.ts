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

/**
 * s3rver, an S3-compatible server, on loopback with one bucket kept in `directory`; on the port
 * given to start again a bucket that was closed (tests/api/outages.test.ts).
 */
export async function startS3rver(directory: string, bucket: string, port = 0): Promise<Bucket> {
  const s3 = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  })
  const running = await s3.run()
  return { endpoint: `http://127.0.0.1:${running.port}`, close: () => s3.close() }
}
