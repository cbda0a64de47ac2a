// Asynchronous content jobs live in the database: a job the server was running when it stopped is run
// when it starts again (api-v1 daemon status and result link; "Jobs persist in the database
// and survive a restart").
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { content as contentEndpoints } from '../../src/contract/content.ts'
import { englishOf } from '../../src/contract/problems.ts'
import { importCatalogue } from '../../src/server/catalogue/service.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import { json, sql } from '../../src/server/platform/db/sql.ts'
import { createLogger } from '../../src/server/platform/log.ts'
import { answerOf, replyOf } from './helpers.ts'

let dataDir: string
let server: RunningServer | null = null

const start = () =>
  startServer({
    port: 0,
    dataDir,
    serveApp: false,
    demoCatalogue: false,
    log: createLogger('silent'),
    env: { DATABASE_URL: undefined },
  })

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'shouts-content-jobs-'))
  server = await start()
  const imported = await importCatalogue(server.deps.database, {
    devices: [
      {
        deviceId: 'berlin-1',
        location: 'Alexanderplatz',
        city: 'Berlin',
        country: 'Germany',
        timeZoneId: 'Europe/Berlin',
        coordinates: { lat: 52.52, lng: 13.41 },
        trafficDirection: 'South',
        imageUrl: '/catalogue/berlin-1.jpg',
        contentWidth: 800,
        contentHeight: 200,
      },
    ],
    templates: [
      {
        id: 'note',
        name: 'Note',
        types: ['photo'],
        widthPx: 800,
        heightPx: 200,
        previewImageUrl: '/catalogue/note.png',
        html: '<div style="display:flex;width:100%;height:100%;background:#222;color:#fff;font-size:40px">{{recipientName}}: {{multilineMessage}}</div>',
      },
    ],
    events: [
      {
        slug: 'muttertag',
        name: 'Muttertag',
        startDateHourLocalInclusive: '2030-05-07_00',
        endDateHourLocalExclusive: '2030-05-10_00',
        slotWidthMS: 900000,
        devices: [{ deviceId: 'berlin-1' }],
        templates: ['note'],
      },
    ],
  })
  if (!imported.success) throw new Error(imported.problems.map(englishOf).join('\n'))
})

afterAll(async () => {
  await server?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

it('finishes a job that was running when the server stopped', async () => {
  if (!server) throw new Error('no server')
  // The state a crash leaves: the job was claimed (running) and never finished.
  const payload = {
    request: {
      generatorId: 'note',
      deviceId: 'berlin-1',
      eventSlug: 'muttertag',
      uploadId: null,
      buyerName: 'Lena',
      recipientName: 'Mama',
      multilineMessage: 'Alles Liebe',
    },
  }
  await server.deps.database.query(sql`
    insert into content_jobs (id, public_token, kind, status, attempts, started_at, payload)
    values ('crashed-job', 'crashed-job-token', 'generate', 'running', 1, now(),
      ${json(payload)}::jsonb)`)
  await server.close()
  server = await start()
  const base = `${server.url}/api/v1/content`

  const jobOf = async () =>
    answerOf(
      contentEndpoints.daemonStatus,
      await replyOf(await fetch(`${base}/daemon/public/crashed-job-token`)),
    )
  let job = await jobOf()
  for (let poll = 0; poll < 200 && job.error === null && job.completedEpochMS === null; poll++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
    job = await jobOf()
  }
  expect(job.error).toBeNull()
  expect(job.link).toMatch(/\/api\/v1\/content\/daemon\/result\/crashed-job-token$/)
  const { newKey } = answerOf(
    contentEndpoints.daemonResult,
    await replyOf(await fetch(new URL(job.link ?? '', base))),
  )
  const { entries } = answerOf(
    contentEndpoints.entries,
    await replyOf(await fetch(`${base}/${newKey}`)),
  )
  expect(entries).toHaveLength(1)
  const png = await fetch(new URL(entries[0]?.url ?? '', base))
  const meta = await sharp(Buffer.from(await png.arrayBuffer())).metadata()
  expect([meta.width, meta.height]).toEqual([800, 200])
})
