import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { advertisers, type Campaign, type Proposal } from '../../src/contract/advertisers.ts'
import { adCellsOfHour, localHours } from '../../src/domain/ad-time.ts'
import { adBillboards } from '../../src/server/catalogue/ad-reads.ts'
import { type RunningServer, startServer } from '../../src/server/main.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import {
  type AdvertiserClient,
  advertiserEnv,
  campaignWithAd,
  signedInAdvertiser,
} from './advertiser-helpers.ts'
import {
  answerOf,
  BACKENDS,
  client,
  savedCard,
  startTestServer,
  type TestServer,
} from './helpers.ts'
import { type SmtpTestServer, startSmtpTestServer } from './smtp-test-server.ts'

// Two advertisers can never hold the same time: each ad play is a row keyed by billboard and start.
// Advertisers racing for the same free time (on PostgreSQL through two instances of the server)
// each get all their proposal or nothing, and a proposal whose plays were sold meanwhile is a 409.
// The schedule's kept reads of ad plays hear of a booking once it committed, never of a lost one.

const HOUR = 3_600_000
const RACERS = 8
// Each racer signs up and in (argon2, two at once per server) and uploads an ad before the race:
// minutes on a loaded machine, not the default minute.
const RACE_TIMEOUT_MS = 240_000

describe.each(BACKENDS)('advertisers racing for the same free time on %s', (backend) => {
  let smtp: SmtpTestServer
  let server: TestServer
  let second: RunningServer | null = null

  beforeAll(async () => {
    smtp = await startSmtpTestServer()
    server = await startTestServer(backend, { env: advertiserEnv(smtp) })
    // a second instance on the same PostgreSQL: the rule must hold whatever the instances
    if (backend === 'postgres') {
      second = await startServer({
        port: 0,
        serveApp: false,
        dataDir: server.dataDir,
        databaseUrl: server.deps.env.DATABASE_URL as string,
        env: { LOG_LEVEL: 'error', WRITES_PER_MINUTE: '100000', ...advertiserEnv(smtp) },
      })
    }
  })
  afterAll(async () => {
    await second?.close()
    await server?.stop()
    await smtp?.close()
  })

  /** Campaigns on one billboard over the same two evening hours: they want the very same cells. */
  /** A rival's proposal for its campaign. */
  async function propose(r: { api: AdvertiserClient; campaign: Campaign }) {
    return answerOf(
      advertisers.propose,
      await r.api.post(`/advertisers/campaigns/${r.campaign.campaignId}/proposal`, {}),
    )
  }

  async function rivals(count: number) {
    const start = Math.ceil((Date.now() + 30 * HOUR) / (24 * HOUR)) * 24 * HOUR + 17 * HOUR
    const racers: { api: AdvertiserClient; campaign: Campaign }[] = []
    for (let i = 0; i < count; i++) {
      const { api } = await signedInAdvertiser(server, smtp)
      const campaign = await campaignWithAd(api, Date.now(), {
        deviceIds: ['paris-opera-1'],
        dayparts: ['Evening'],
        startEpochMs: start,
        endEpochMs: start + 2 * HOUR,
        budgetCents: 30 * 960,
      })
      racers.push({ api, campaign })
    }
    return racers
  }

  const acceptWith = async (api: AdvertiserClient, proposal: Proposal, base = server.url) => {
    const saved = await savedCard(client(server.url))
    return fetch(`${base}/api/v1/advertisers/proposals/${proposal.proposalGuid}/accept`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${api.token}`,
        origin: 'https://shop.example',
        'content-type': 'application/json',
      },
      body: JSON.stringify({
        customerId: saved.customerId,
        checkoutSecretKey: saved.checkoutSecretKey,
      }),
    })
  }

  const heldPlays = () =>
    server.deps.database.query(sql<{ campaignId: string; startEpochMs: number }>`
      select campaign_id as "campaignId", start_epoch_ms as "startEpochMs" from ad_plays
      where device_id = 'paris-opera-1' order by start_epoch_ms`)

  it(
    'refuses a proposal whose plays were sold meanwhile with 409, and a new one holds other times',
    async () => {
      const [a, b] = await rivals(2)
      if (!a || !b) throw new Error('no rivals')
      const pa = await propose(a)
      const pb = await propose(b)
      expect(pb.totalPlays).toBe(pa.totalPlays)
      expect((await acceptWith(a.api, pa)).status).toBe(200)
      const late = await acceptWith(b.api, pb)
      expect(late.status).toBe(409)
      expect(await late.json()).toMatchObject({
        codes: ['proposal_plays_taken'],
        errors: ['Some of the proposed plays were sold meanwhile: ask for a new proposal'],
      })
      const still = answerOf(
        advertisers.campaign,
        await b.api.get(`/advertisers/campaigns/${b.campaign.campaignId}`),
      )
      expect(still).toMatchObject({ state: 'Proposed', scheduledPlays: 0 })

      const again = await propose(b)
      expect((await acceptWith(b.api, again)).status).toBe(200)
      const held = await heldPlays()
      const ofA = held
        .filter((p) => p.campaignId === a.campaign.campaignId)
        .map((p) => p.startEpochMs)
      const ofB = held
        .filter((p) => p.campaignId === b.campaign.campaignId)
        .map((p) => p.startEpochMs)
      expect(ofA).toHaveLength(pa.totalPlays)
      expect(ofB).toHaveLength(again.totalPlays)
      expect(ofA.filter((t) => ofB.includes(t))).toEqual([])
    },
    RACE_TIMEOUT_MS,
  )

  it(
    'tells the billboards’ schedule of a booking once it committed, and nothing of one that lost its plays',
    async () => {
      const [a, b] = await rivals(2)
      if (!a || !b) throw new Error('no rivals')
      const pa = await propose(a)
      const pb = await propose(b)
      // each time the schedule's kept reads are dropped, what another connection reads of the
      // winner's plays: a change told before its commit would show none (or, on the embedded
      // database, be refused as a statement sent from inside the transaction)
      let told: Promise<number | string>[] = []
      let listening = true
      server.deps.airChanges.onChange(() => {
        if (!listening) return
        told.push(
          heldPlays().then(
            (rows) => rows.filter((p) => p.campaignId === a.campaign.campaignId).length,
            (error: Error) => error.message,
          ),
        )
      })
      try {
        expect((await acceptWith(a.api, pa)).status).toBe(200)
        const seen = await Promise.all(told)
        expect(seen.length).toBeGreaterThan(0)
        expect(new Set(seen)).toEqual(new Set([pa.totalPlays]))

        told = []
        expect((await acceptWith(b.api, pb)).status).toBe(409)
        expect(await Promise.all(told)).toEqual([])
      } finally {
        listening = false
      }
    },
    RACE_TIMEOUT_MS,
  )

  it(
    `sells each play once among ${RACERS} advertisers accepting at the same moment`,
    async () => {
      const racers = await rivals(RACERS)
      const proposals = await Promise.all(
        racers.map(async (r) =>
          answerOf(
            advertisers.propose,
            await r.api.post(`/advertisers/campaigns/${r.campaign.campaignId}/proposal`, {}),
          ),
        ),
      )
      const bases = second ? [server.url, second.url] : [server.url]
      const answers = await Promise.all(
        racers.map((r, i) => acceptWith(r.api, proposals[i] as Proposal, bases[i % bases.length])),
      )
      const statuses = answers.map((a) => a.status).sort()
      // identical campaigns want identical cells: one wins them all, the others are told
      expect(statuses).toEqual([200, ...Array(RACERS - 1).fill(409)])

      const held = await heldPlays()
      const starts = held.map((p) => p.startEpochMs)
      expect(new Set(starts).size).toBe(starts.length)
      // and every play held is one of the billboard's ad cells (never a shout's place)
      const [opera] = await adBillboards(server.deps.database, ['paris-opera-1'])
      if (!opera) throw new Error('no billboard')
      for (const start of starts) {
        const [hour] = localHours(opera.timeZoneId, start, start + 1)
        if (!hour) throw new Error('no hour')
        expect(
          adCellsOfHour({ timeZoneId: opera.timeZoneId, events: opera.events }, hour),
        ).toContain(start)
      }
    },
    RACE_TIMEOUT_MS,
  )
})
