import { copyFileSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/server/platform/db/client.ts'
import { applyMigrations, MIGRATIONS_DIR } from '../../src/server/platform/db/migrate.ts'
import { sql } from '../../src/server/platform/db/sql.ts'
import { BACKENDS, freshDataDir, freshPostgres } from './helpers.ts'

// The shop stored an order's failures in English: why it failed or was cancelled (orders.errors and
// its history), a payment's, a refund's and a mail's error. Migration 0021 reads them back into
// problems on an existing database: rows written in the old shape, then the migration, then what is
// stored, so a shopper's and an operator's pages show them in their language.

const ORDER = (guid: string, state: string, errors: string[]) => sql`
  insert into orders (guid, event_slug, device_id, state, errors, order_type, email, first_name,
    last_name, phone_number, will_receive_marketing, execution_content_key, content_source, locale,
    slot_numbers, slot_count, value_cents_per_slot, subtotal_cents, discount_cents, total_cents,
    currency, agreements, agreements_accepted_at, request_body)
  values (${guid}, 'fair', 'board-1', ${state}, ${JSON.stringify(errors)}::jsonb, 'Standard',
    'a@example.com', 'Ann', 'Lee', '555-555-5555', false, 'key', 'generated', 'en', '{1}', 1, 500,
    500, 0, 500, 'USD', '{}'::jsonb, now(), '{}'::jsonb)`

for (const backend of BACKENDS) {
  describe(`an order's stored failures become problems (${backend})`, () => {
    let db: Database
    let dataDir: string
    let dropPostgres: (() => Promise<void>) | null = null

    beforeAll(async () => {
      dataDir = await freshDataDir()
      const postgres = backend === 'postgres' ? await freshPostgres() : null
      dropPostgres = postgres?.drop ?? null
      db = await openDatabase({ dataDir, databaseUrl: postgres?.url })
      // the schema as it was before 0021
      // beside the migrations, so a migration written as code finds the modules it imports
      const before = mkdtempSync(join(MIGRATIONS_DIR, '..', 'migrations-before-'))
      for (const name of readdirSync(MIGRATIONS_DIR).filter((n) => n < '0021')) {
        copyFileSync(join(MIGRATIONS_DIR, name), join(before, name))
      }
      await applyMigrations(db, before)
      rmSync(before, { recursive: true, force: true })
    })
    afterAll(async () => {
      await db?.close()
      await dropPostgres?.()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    it('shows old English failures as codes: the reasons, the payments, the refunds and the mails', async () => {
      await db.query(sql`
        insert into devices (device_id, location, city, country, time_zone_id, lat, lng,
          viewing_area_coordinates, traffic_direction, screens, image_url, content_width,
          content_height)
        values ('board-1', 'Main St', 'Town', 'US', 'UTC', 0, 0, '[]', 'north', 1, 'x.png', 1920,
          1080)`)
      await db.query(sql`
        insert into events (slug, name, start_date_hour_local_inclusive,
          end_date_hour_local_exclusive, slot_width_ms, allowed_content_generator_types,
          value_cents_per_slot, currency)
        values ('fair', 'Fair', '2027-05-08_10', '2027-05-08_12', 900000, '[]', 500, 'USD')`)
      await db.query(ORDER('order-failed', 'Failed', ['Your card has insufficient funds.']))
      await db.query(ORDER('order-gone', 'Failed', ['Event not found']))
      await db.query(
        ORDER('order-swept', 'Cancelled', [
          'Your shout was still being reviewed when its first time slot began',
        ]),
      )
      await db.query(ORDER('order-refused', 'Cancelled', ['Blurry photo, please send another']))
      await db.query(ORDER('order-stripe', 'Failed', ['Your card does not support this purchase.']))
      await db.query(sql`
        insert into order_state_history (order_guid, state, actor, reason) values
          ('order-swept', 'Cancelled', 'system',
            'Your shout was still being reviewed when its first time slot began'),
          ('order-refused', 'Cancelled', 'operator', 'Blurry photo, please send another'),
          ('order-failed', 'Failed', 'system', 'Your card has insufficient funds.')`)
      await db.query(sql`
        insert into payments (id, order_guid, provider, amount_cents, currency, status, error) values
          ('pay-1', 'order-failed', 'local', 500, 'USD', 'failed', 'Your card has insufficient funds.'),
          ('pay-2', 'order-refused', 'local', 500, 'USD', 'succeeded', null)`)
      await db.query(sql`
        insert into refunds (order_guid, provider, payment_id, amount_cents, currency,
          idempotency_key, status, error) values
          ('order-refused', 'stripe', 'pay-2', 500, 'USD', 'refund-order-refused', 'failed',
            'Charge ch_1 has already been refunded.')`)
      await db.query(sql`
        insert into mail_outbox (id, order_guid, kind, locale, to_address, subject, body_text,
          body_html, message_id, status, attempts, last_error) values
          ('mail-1', 'order-refused', 'cancelled', 'en', 'a@example.com', 's', 't', 'h', 'm1',
            'queued', 1, '421 4.7.0 Try again later')`)

      expect(await applyMigrations(db)).toContain('0021_stored_problems.ts')

      const orders = await db.query(sql<{ guid: string; errors: unknown }>`
        select guid, errors from orders order by guid`)
      expect(Object.fromEntries(orders.map((o) => [o.guid, o.errors]))).toEqual({
        'order-failed': [{ code: 'insufficient_funds' }],
        'order-gone': [{ code: 'event_not_found' }],
        'order-refused': [
          { code: 'order_cancelled', params: { reason: 'Blurry photo, please send another' } },
        ],
        'order-stripe': [
          { code: 'plain_text', params: { text: 'Your card does not support this purchase.' } },
        ],
        'order-swept': [{ code: 'review_outlived_first_slot' }],
      })
      const history = await db.query(sql<{ reason: unknown }>`
        select reason from order_state_history where reason is not null order by id`)
      expect(history.map((h) => h.reason)).toEqual([
        { code: 'review_outlived_first_slot' },
        { code: 'order_cancelled', params: { reason: 'Blurry photo, please send another' } },
        { code: 'insufficient_funds' },
      ])
      const payments = await db.query(sql<{ error: unknown }>`
        select error from payments order by id`)
      expect(payments.map((p) => p.error)).toEqual([{ code: 'insufficient_funds' }, null])
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
        params: { reason: '421 4.7.0 Try again later' },
      })
      // applied once: a second start changes nothing
      expect(await applyMigrations(db)).toEqual([])
    })
  })
}
