import { createReadStream } from 'node:fs'
import { content as contentApi } from '../../contract/index.ts'
import { withFailureFields } from '../platform/http/errors.ts'
import { sendFileRange } from '../platform/http/range.ts'
import type { ApiRouter } from '../platform/http/router.ts'
import type { ClientLimits } from '../platform/rate-limit.ts'
import { err, mapErr, mapOk, ok } from '../platform/result.ts'
import type { UploadRefusal } from './errors.ts'
import { receiveUpload } from './receive.ts'
import { contentRefusal } from './refusals.ts'
import type { ContentService } from './service.ts'

// api-v1 "Content" over HTTP: the uploads' multipart body read into a file for the service
// (receive.ts), the service's errors as refusals (refusals.ts), and the files served with Range support.

/** When a client told to wait (its share of uploads used up) may try again, in seconds. */
function retryAfterOf(error: UploadRefusal): number | null {
  const seconds = error.code === 'upload_quota' ? error.params?.seconds : undefined
  return typeof seconds === 'number' ? seconds : null
}

// Served so that no browser runs them: nosniff, a sandboxing CSP, and a download name that is ours.
const INERT = {
  'X-Content-Type-Options': 'nosniff',
  'Content-Security-Policy': "default-src 'none'; sandbox",
}
const downloadName = (templateId: string, extension: string) =>
  `inline; filename="${templateId.replace(/[^\w.-]/g, '_')}.${extension}"`

export function contentRoutes(router: ApiRouter, content: ContentService, limits: ClientLimits) {
  router.handle(contentApi.generators, async ({ query }) =>
    ok({
      generators: await content.generators(query),
    }),
  )

  router.handle(
    contentApi.upload,
    async ({ c }) => {
      // The multipart body is read here; the service gets the file, never the request.
      const upload = await content.upload((intake) => receiveUpload(c.req.raw, intake), {
        clientKey: limits.clientKey(c),
      })
      if (!upload.ok) {
        const wait = retryAfterOf(upload.error)
        if (wait !== null) c.header('Retry-After', String(wait))
        return err(contentRefusal(upload.error))
      }
      return ok(c.json(withFailureFields(upload.value), 201))
    },
    limits.writes('uploads'),
  )

  router.handle(contentApi.uploadStatus, async ({ params }) => {
    const upload = await content.uploadStatus(params.id)
    return mapErr(mapOk(upload, withFailureFields), contentRefusal)
  })

  // Every problem of a generation request is a 400 (an upload being processed too: the app waits).
  router.handle(
    contentApi.generate,
    async ({ body, c }) => {
      const generated = await content.generate(body, { clientKey: limits.clientKey(c) })
      if (generated.ok) return ok(withFailureFields(generated.value))
      if ('busy' in generated) {
        c.header('Retry-After', String(generated.busy.seconds))
        return err(contentRefusal(generated.busy.problem))
      }
      return err(contentRefusal(generated.errors, 400))
    },
    limits.writes('generate'),
  )

  router.handle(contentApi.daemonStatus, async ({ params }) => {
    const status = await content.jobStatus(params.publicToken)
    return mapErr(mapOk(status, withFailureFields), contentRefusal)
  })

  router.handle(contentApi.daemonResult, async ({ params }) => {
    const result = await content.jobResult(params.publicToken)
    if (result.ok) return ok(result.value)
    const { error } = result
    // A failed job: content_failed (422), the content could not be made, the answer listing the
    // reasons the job kept, as data (generation.ts FailedJob).
    return err('problems' in error ? { code: error.code, kept: error.problems } : error)
  })

  router.handle(contentApi.file, async ({ c, params }) => {
    const file = await content.file(params.name)
    if (!file.ok) return err(contentRefusal(file.error))
    const headers: Record<string, string> = {
      'Content-Type': file.value.type,
      'Content-Disposition': `inline; filename="${params.name}"`,
      ...INERT,
      // Names are random and files never change: cache for good.
      'Cache-Control': 'public, max-age=31536000, immutable',
      // Video players seek with Range requests (Safari will not play an mp4 without them).
      'Accept-Ranges': 'bytes',
    }
    return ok(await sendFileRange(c, headers, file.value.size, file.value.open))
  })

  // A catalogue can use a template's preview as previewImageUrl, its clip as examplePreviewVideoUrl.
  router.handle(contentApi.preview, async ({ c, params }) => {
    const found = await content.preview(params.file)
    if (!found.ok) {
      // Without ffmpeg there is no example clip to find (not a bad request).
      const status = found.error.code === 'content_type_unavailable' ? 404 : undefined
      return err(contentRefusal(found.error, status))
    }
    const preview = found.value
    if (preview.kind === 'mp4') {
      const headers: Record<string, string> = {
        'Content-Type': 'video/mp4',
        'Content-Disposition': downloadName(preview.templateId, 'mp4'),
        ...INERT,
        'Cache-Control': 'public, max-age=3600',
        'Accept-Ranges': 'bytes',
      }
      return ok(
        await sendFileRange(c, headers, preview.size, (range) =>
          createReadStream(preview.path, range ? { start: range.start, end: range.end } : {}),
        ),
      )
    }
    return ok(
      c.body(new Uint8Array(preview.png), 200, {
        'Content-Type': 'image/png',
        'Content-Disposition': downloadName(preview.templateId, 'png'),
        ...INERT,
        // A re-import may change the template: browsers check again within the hour.
        'Cache-Control': 'public, max-age=3600',
      }),
    )
  })

  router.handle(contentApi.entries, async ({ params }) => {
    const entries = await content.entries(params.opaqueKey)
    return mapErr(entries, contentRefusal)
  })
}
