// Migrations run in file-name order: two files with one number would run in the order of their
// names, which nobody chose. Each number is used once; a file renumbered keeps its old name in
// migrate.ts so that databases that applied it do not run it again.
import { describe, expect, it } from 'vitest'
import { migrationFiles, RENAMED_MIGRATIONS } from '../../src/server/platform/db/migrate.ts'

describe('the migration files', () => {
  it('use each number once, and the renamed ones exist under their new number', () => {
    const files = migrationFiles()
    const numbers = files.map((name) => name.slice(0, 4))
    const doubled = numbers.filter((number, index) => numbers.indexOf(number) !== index)
    expect(doubled).toEqual([])
    for (const [old, renamed] of Object.entries(RENAMED_MIGRATIONS)) {
      expect(files).toContain(renamed)
      expect(files).not.toContain(old)
    }
  })
})
