import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { applyMigrations, MIGRATIONS_DIR } from '../../src/server/platform/db/migrate.ts'
import { json, sql } from '../../src/server/platform/db/sql.ts'
import { BACKENDS, freshDataDir, freshPostgres } from './helpers.ts'

// The shop stored its failures in English (an order's errors, an upload's and a content job's
// error, a charge's, a refund's, a mail's). Migration 0010 reads them back into problems on an
// existing database: rows written in the old shape, then the migration, then what a client reads.

const ORDER = (guid: string, state: string, errors: string[]) => sql`
  insert into orders (guid, event_slug, device_id, state, errors, order_type, email, first_name,
    last_name, phone_number, will_receive_marketing, execution_content_key, content_source, locale,
    slot_numbers, slot_count, value_cents_per_slot, subtotal_cents, discount_cents, total_cents,
    currency, agreements, agreements_accepted_at, request_body)
  values (${guid}, 'fair', 'billboard-1', ${state}, ${json(errors)}::jsonb, 'Standard',
    'ada@example.com', 'Ada', 'Lovelace', '555-123-4567', false, 'key', '{}', 'en', '{1}', 1, 4000,
    4000, 0, 4000, 'USD', '{}'::jsonb, now(), '{}'::jsonb)`

for (const backend of BACKENDS) {
  describe(`stored failures become problems (${backend})`, () => {
    let db: Database
    let dataDir: string
    let dropPostgres: (() => Promise<void>) | null = null

    beforeAll(async () => {
      dataDir = await freshDataDir()
      const postgres = backend === 'postgres' ? await freshPostgres() : null
      dropPostgres = postgres?.drop ?? null
      db = await openDatabase({ dataDir, databaseUrl: postgres?.url })
      // the schema as it was before 0010
      const before = mkdtempSync(join(tmpdir(), 'shouts-migrations-'))
      for (const name of readdirSync(MIGRATIONS_DIR).filter((n) => n < '0010')) {
        copyFileSync(join(MIGRATIONS_DIR, name), join(before, name))
      }
      await applyMigrations(db, before)
      rmSync(before, { recursive: true, force: true })
      await db.query(sql`
        insert into events (slug, name, start_date_hour_local_inclusive,
          end_date_hour_local_exclusive, slot_width_ms, allowed_content_generator_types,
          value_cents_per_slot, currency)
        values ('fair', 'Fair', '2027-05-01_00', '2027-05-02_00', 900000, '["photo"]', 4000, 'USD')`)
      await db.query(sql`
        insert into devices (device_id, location, city, country, time_zone_id, lat, lng,
          viewing_area_coordinates, traffic_direction, screens, image_url, content_width,
          content_height)
        values ('billboard-1', 'Square', 'Paris', 'France', 'Europe/Paris', 48.8, 2.3, '[]',
          'North', 1, '/b.jpg', 1400, 400)`)
    })
    afterAll(async () => {
      await db?.close()
      await dropPostgres?.()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    it('reads each stored text back into its code and values, and keeps a text no template makes', async () => {
      const failed = '00000000-0000-4000-8000-000000000001'
      const cancelled = '00000000-0000-4000-8000-000000000002'
      const swept = '00000000-0000-4000-8000-000000000003'
      await db.query(
        ORDER(failed, 'Failed', ['Your card has insufficient funds.', 'Gremlins ate it']),
      )
      await db.query(ORDER(cancelled, 'Cancelled', ['The photo does not match the event.']))
      await db.query(
        ORDER(swept, 'Cancelled', [
          'Your shout was still being reviewed when its first time slot began',
        ]),
      )
      await db.query(sql`
        insert into order_state_history (order_guid, state, actor, reason) values
          (${failed}, 'Failed', 'system', 'Your card has insufficient funds.'),
          (${cancelled}, 'Cancelled', 'operator', 'The photo does not match the event.')`)
      await db.query(sql`
        insert into payment_setups (checkout_secret_key, provider, customer_id, client_secret,
          setup_intent_id, charge_outcome)
        values ('cs_1', 'local', 'cus_1', 'secret_1', 'seti_1', 'Your card was declined.')`)
      await db.query(sql`
        insert into payments (id, order_guid, provider, amount_cents, currency, status, error)
        values ('pi_1', ${failed}, 'local', 4000, 'USD', 'failed', 'Your card was declined.')`)
      await db.query(sql`
        insert into refunds (order_guid, provider, payment_id, amount_cents, currency,
          idempotency_key, error)
        values (${cancelled}, 'stripe', 'pi_2', 4000, 'USD', 'refund-1',
          'Charge ch_1 has already been refunded.')`)
      await db.query(sql`
        insert into mail_outbox (id, order_guid, kind, locale, to_address, subject, body_text,
          body_html, message_id, last_error)
        values ('mail-1', ${cancelled}, 'cancelled', 'en', 'ada@example.com', 's', 't', 'h', 'm',
          '450 Mailbox busy')`)
      await db.query(sql`
        insert into content_uploads (id, kind, format, status, error) values
          ('upload-1', 'photo', 'png', 'failed', 'The file is too large. The limit is 15 MB.'),
          ('upload-2', 'video', 'mp4', 'failed', 'ffmpeg could not read frame 3 of stream 0')`)
      await db.query(sql`
        insert into content_jobs (id, public_token, kind, payload, status, error) values
          ('job-1', 'token-1', 'generate', '{}', 'failed',
            'contentGenerationRequest.generatorId: unknown template "hearts"')`)

      expect(await applyMigrations(db)).toContain('0010_problems.ts')

      const orders = await db.query(sql<{ guid: string; errors: unknown }>`
        select guid, errors from orders order by guid`)
      expect(orders.map((o) => o.errors)).toEqual([
        [
          { code: 'insufficient_funds' },
          { code: 'plain_text', params: { text: 'Gremlins ate it' } },
        ],
        [{ code: 'order_cancelled', params: { reason: 'The photo does not match the event.' } }],
        [{ code: 'review_outlived_first_slot' }],
      ])
      const history = await db.query(sql<{ reason: unknown }>`
        select reason from order_state_history where reason is not null order by id`)
      expect(history.map((h) => h.reason)).toEqual([
        { code: 'insufficient_funds' },
        { code: 'order_cancelled', params: { reason: 'The photo does not match the event.' } },
      ])
      const [setup] = await db.query(sql<{ outcome: unknown }>`
        select charge_outcome as outcome from payment_setups`)
      expect(setup?.outcome).toEqual({ code: 'card_declined' })
      const [payment] = await db.query(sql<{ error: unknown }>`select error from payments`)
      expect(payment?.error).toEqual({ code: 'card_declined' })
      const [refund] = await db.query(sql<{ error: unknown }>`select error from refunds`)
      expect(refund?.error).toEqual({
        code: 'refund_failed',
        params: { reason: 'Charge ch_1 has already been refunded.' },
      })
      const [mail] = await db.query(
        sql<{ error: unknown }>`select last_error as error from mail_outbox`,
      )
      expect(mail?.error).toEqual({
        code: 'mail_send_failed',
        params: { reason: '450 Mailbox busy' },
      })
      const uploads = await db.query(sql<{ error: unknown }>`
        select error from content_uploads order by id`)
      expect(uploads.map((u) => u.error)).toEqual([
        { code: 'upload_too_large', params: { mb: 15 } },
        { code: 'plain_text', params: { text: 'ffmpeg could not read frame 3 of stream 0' } },
      ])
      const [job] = await db.query(sql<{ error: unknown }>`select error from content_jobs`)
      expect(job?.error).toEqual([{ code: 'template_unknown', params: { generatorId: 'hearts' } }])
      // applied once: a second start changes nothing
      expect(await applyMigrations(db)).toEqual([])
    })
  })
}
