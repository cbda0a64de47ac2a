import { wordTableOf } from '../../../../contract/problem-words.ts'
import { PROBLEMS, type ProblemCode, WORDS } from '../../../../contract/problems.ts'
import type { ProblemData, ProblemParams } from '../../../../domain/problems.ts'
import type { Transaction } from '../client.ts'
import { json, type Sql, sql } from '../sql.ts'

// Stored failures become problems ({code, params}, decision 021): what the shop kept in English is
// read back into its code and params with the catalogue's templates, once, here. A text no template
// matches loses nothing: it is kept whole as plain_text. An operator's reason for a cancel is theirs,
// not a sentence of ours: order_cancelled with the reason as typed. A mail server's or a payment
// provider's words are the reason of mail_send_failed and refund_failed.
//
//   orders.errors                 jsonb array of texts -> jsonb array of problems
//   order_state_history.reason    text -> jsonb problem
//   payments.error                text -> jsonb problem
//   payment_setups.charge_outcome text -> jsonb problem
//   refunds.error                 text -> jsonb problem (refund_failed)
//   mail_outbox.last_error        text -> jsonb problem (mail_send_failed)
//   content_uploads.error         text -> jsonb problem
//   content_jobs.error            text -> jsonb array of problems

// Templates that match any text say nothing of where it came from: never matched against.
const UNMATCHABLE = new Set<ProblemCode>(['plain_text', 'invalid_input', 'field_invalid'])

type Template = { code: ProblemCode; pattern: RegExp; names: string[]; literal: number }

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const TEMPLATES: Template[] = (Object.keys(PROBLEMS) as ProblemCode[])
  .filter((code) => !UNMATCHABLE.has(code))
  .map((code) => {
    const en = PROBLEMS[code].en
    const names: string[] = []
    const source = en
      .split(/(\{\w+(?:, \w+)?\})/)
      .map((part) => {
        const name = /^\{(\w+)(?:, \w+)?\}$/.exec(part)?.[1]
        if (!name) return escapeRegExp(part)
        names.push(name)
        return '(.+?)'
      })
      .join('')
    return {
      code,
      pattern: new RegExp(`^${source}$`, 's'),
      names,
      literal: en.replace(/\{\w+(?:, \w+)?\}/g, '').length,
    }
  })
  .filter((t) => t.literal >= 6)
  // the most specific first: the longest literal text, before shorter ones it could contain
  .sort((a, b) => b.literal - a.literal)

/** A word written back into its key ('terms and conditions' -> 'terms'), when the param has a table. */
function keyOfWord(code: ProblemCode, name: string, value: string): string {
  const table = wordTableOf(code, name)
  if (!table || !Object.hasOwn(WORDS, table)) return value
  const words: Record<string, string> = WORDS[table as keyof typeof WORDS]
  return Object.entries(words).find(([, word]) => word === value)?.[0] ?? value
}

/** The problem an English text of the shop was made from, or null when no template makes it. */
export function problemOfText(text: string): ProblemData | null {
  for (const template of TEMPLATES) {
    const match = template.pattern.exec(text)
    if (!match) continue
    if (template.names.length === 0) return { code: template.code }
    const params: Record<string, ProblemParams[string]> = {}
    template.names.forEach((name, i) => {
      const value = match[i + 1] ?? ''
      if (/^\d+$/.test(value)) params[name] = Number(value)
      else params[name] = problemOfText(value) ?? keyOfWord(template.code, name, value)
    })
    return { code: template.code, params }
  }
  return null
}

/** A stored failure: its problem, or the text kept whole. */
export const storedProblem = (text: string): ProblemData =>
  problemOfText(text) ?? { code: 'plain_text', params: { text } }

const plain = (column: string) =>
  `case when ${column} is null then null else jsonb_build_object('code', 'plain_text', 'params', jsonb_build_object('text', ${column})) end`

type StoredText = { key: string; text: string; actor?: string; state?: string }

/**
 * A text column becomes jsonb: each stored text is read back with `convert`. `read` answers the
 * rows (key, text) once the column holds plain_text; `write` stores a row's problem.
 */
async function convertColumn(
  tx: Transaction,
  table: string,
  column: string,
  read: Sql<StoredText>,
  write: (key: string, value: string) => Sql,
  convert: (row: StoredText) => unknown,
): Promise<void> {
  await tx.exec(`alter table ${table} alter column ${column} type jsonb using ${plain(column)}`)
  for (const row of await tx.query(read)) await tx.query(write(row.key, json(convert(row))))
}

export async function migrate(tx: Transaction): Promise<void> {
  const autoCancel = PROBLEMS.review_outlived_first_slot.en
  const cancelReason = (text: string): ProblemData =>
    text === autoCancel
      ? { code: 'review_outlived_first_slot' }
      : { code: 'order_cancelled', params: { reason: text } }
  const stored = (row: StoredText) => storedProblem(row.text)
  const failure = (name: string) => (row: StoredText) => ({
    code: name,
    params: { reason: row.text },
  })

  // orders.errors: a Cancelled order's are its reasons, a Failed one's its failures
  const orders = await tx.query(sql<{ guid: string; state: string; errors: unknown[] }>`
    select guid, state, errors from orders where jsonb_array_length(errors) > 0`)
  for (const order of orders) {
    const problems = order.errors.map((error) => {
      if (typeof error !== 'string') return error
      return order.state === 'Cancelled' ? cancelReason(error) : storedProblem(error)
    })
    await tx.query(
      sql`update orders set errors = ${json(problems)}::jsonb where guid = ${order.guid}`,
    )
  }

  await convertColumn(
    tx,
    'order_state_history',
    'reason',
    sql<StoredText>`select id::text as key, reason -> 'params' ->> 'text' as text, actor, state
      from order_state_history where reason is not null`,
    (key, value) =>
      sql`update order_state_history set reason = ${value}::jsonb where id = ${key}::bigint`,
    (row) =>
      row.actor === 'operator' || row.state === 'Cancelled' ? cancelReason(row.text) : stored(row),
  )
  await convertColumn(
    tx,
    'payments',
    'error',
    sql<StoredText>`select id as key, error -> 'params' ->> 'text' as text
      from payments where error is not null`,
    (key, value) => sql`update payments set error = ${value}::jsonb where id = ${key}`,
    stored,
  )
  await convertColumn(
    tx,
    'payment_setups',
    'charge_outcome',
    sql<StoredText>`select checkout_secret_key as key, charge_outcome -> 'params' ->> 'text' as text
      from payment_setups where charge_outcome is not null`,
    (key, value) =>
      sql`update payment_setups set charge_outcome = ${value}::jsonb
        where checkout_secret_key = ${key}`,
    stored,
  )
  await convertColumn(
    tx,
    'refunds',
    'error',
    sql<StoredText>`select order_guid as key, error -> 'params' ->> 'text' as text
      from refunds where error is not null`,
    (key, value) => sql`update refunds set error = ${value}::jsonb where order_guid = ${key}`,
    failure('refund_failed'),
  )
  await convertColumn(
    tx,
    'mail_outbox',
    'last_error',
    sql<StoredText>`select id as key, last_error -> 'params' ->> 'text' as text
      from mail_outbox where last_error is not null`,
    (key, value) => sql`update mail_outbox set last_error = ${value}::jsonb where id = ${key}`,
    failure('mail_send_failed'),
  )
  await convertColumn(
    tx,
    'content_uploads',
    'error',
    sql<StoredText>`select id as key, error -> 'params' ->> 'text' as text
      from content_uploads where error is not null`,
    (key, value) => sql`update content_uploads set error = ${value}::jsonb where id = ${key}`,
    stored,
  )
  // a job's failure may be several problems (a request that names several wrong things)
  await convertColumn(
    tx,
    'content_jobs',
    'error',
    sql<StoredText>`select id as key, error -> 'params' ->> 'text' as text
      from content_jobs where error is not null`,
    (key, value) => sql`update content_jobs set error = ${value}::jsonb where id = ${key}`,
    (row) => [stored(row)],
  )
}
