import type { Transaction } from '../client.ts'
import { sql } from '../sql.ts'
import { convertColumn, type StoredText, storedProblem } from '../stored-problems.ts'

// Content's stored failures become problems (decision 021): an upload's error and a content job's,
// kept in English until now, are read back into {code, params} (../stored-problems.ts); a text no
// template makes is kept whole as plain_text.
//
//   content_uploads.error   text -> jsonb problem
//   content_jobs.error      text -> jsonb array of problems (a request may name several wrong things)

export async function migrate(tx: Transaction): Promise<void> {
  const stored = (row: StoredText) => storedProblem(row.text)
  await convertColumn(
    tx,
    'content_uploads',
    'error',
    sql<StoredText>`select id as key, error -> 'params' ->> 'text' as text
      from content_uploads where error is not null`,
    (key, value) => sql`update content_uploads set error = ${value}::jsonb where id = ${key}`,
    stored,
  )
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
