// The content worker's child process (see content-worker.ts): answers render and moderation jobs from
// its parent over IPC and leaves when the parent disconnects. Jobs run concurrently here as they would
// in the server (render.ts bounds image work to two at a time).
import { createImageModerator, type ImageModerator } from '../moderation/index.ts'
import type { WorkerAnswer, WorkerRequest, WorkerSettings } from './content-worker.ts'
import { renderTemplatePng } from './render.ts'

// The parent hands the settings over as the one argument (content-worker.ts), parsed there already.
const settings = JSON.parse(process.argv[2] ?? '{}') as WorkerSettings
const moderator: ImageModerator | null = settings.moderation
  ? createImageModerator(settings.moderation)
  : null

function needModerator(): ImageModerator {
  if (!moderator) throw new Error('This worker has no picture checker')
  return moderator
}

async function run(request: WorkerRequest): Promise<unknown> {
  switch (request.op) {
    case 'render': {
      const { input } = request
      // Structured clone hands the photo over as a Uint8Array; sharp and the cache key want a Buffer.
      const photo = input.photo
        ? Buffer.from(input.photo.buffer, input.photo.byteOffset, input.photo.byteLength)
        : null
      return new Uint8Array(await renderTemplatePng({ ...input, photo }))
    }
    case 'moderateImage':
      return needModerator().moderateImage(request.image)
    case 'moderateVideoFrames':
      return needModerator().moderateVideoFrames(request.frames)
    case 'warmUp':
      return needModerator().warmUp()
  }
}

process.on('message', (request: WorkerRequest) => {
  run(request).then(
    (result) => send({ id: request.id, ok: true, result }),
    (error: unknown) => {
      const e = error instanceof Error ? error : new Error(String(error))
      send({ id: request.id, ok: false, error: { name: e.name, message: e.message } })
    },
  )
})

function send(answer: WorkerAnswer) {
  // The parent may close the channel between the check and the write (a server stopping while a
  // render finishes): with a callback the failure (EPIPE) comes here instead of as an unhandled
  // 'error' event that crashed this process; there is no one left to answer, so it just ends.
  if (process.connected) process.send?.(answer, undefined, {}, (error) => error && process.exit(0))
}

// The parent went away (idle, stopping, or gone): nothing is left to do.
process.on('disconnect', () => process.exit(0))
