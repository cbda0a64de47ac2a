// Where the suite's time goes: runs the Vitest projects (and, with --e2e, Playwright on the build
// already made) with their JSON reporters, then prints each project's and each file's wall time and,
// for the API files, what their servers cost: copying a migrated database, starting, stopping
// (tests/api/test-times.ts records those). `--from DIR` prints the reports of an earlier run again.
//
//   npm run test:times                  Vitest only
//   npm run test:times -- --e2e         and Playwright (after `npm run build`)
//   npm run test:times -- --from DIR    the reports an earlier run left in DIR
//   npm run test:times -- tests/api/orders.test.ts --project api     what Vitest is given
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join, relative } from 'node:path'

type VitestReport = {
  testResults: {
    name: string
    startTime: number
    endTime: number
    assertionResults: { duration?: number | null }[]
  }[]
}
type PlaywrightSuite = {
  file: string
  specs: { tests: { projectName: string; results: { duration: number; startTime: string }[] }[] }[]
  suites?: PlaywrightSuite[]
}
type PlaywrightReport = { suites: PlaywrightSuite[]; stats: { duration: number } }
type Phase = { file: string; phase: 'database' | 'start' | 'stop'; ms: number }

const ROOT = process.cwd()
const args = process.argv.slice(2)
const fromIndex = args.indexOf('--from')
const dir =
  fromIndex >= 0 ? (args[fromIndex + 1] ?? '.') : mkdtempSync(join(tmpdir(), 'test-times-'))
const files = {
  vitest: join(dir, 'vitest.json'),
  playwright: join(dir, 'playwright.json'),
  phases: join(dir, 'phases.jsonl'),
}

function run(command: string, commandArgs: string[], env: Record<string, string>): number {
  const started = Date.now()
  const result = spawnSync(command, commandArgs, {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  })
  const seconds = (Date.now() - started) / 1000
  console.log(
    `\n${command} ${commandArgs.join(' ')}: ${seconds.toFixed(0)} s, exit ${result.status}`,
  )
  return seconds
}

// file filters or a --project, handed to Vitest as they are
const vitestArgs = args.filter((arg) => arg !== '--e2e')
const walls: Record<string, number> = {}
if (fromIndex < 0) {
  console.log(
    `load average before: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; reports in ${dir}`,
  )
  walls.vitest = run(
    'npx',
    [
      'vitest',
      'run',
      '--reporter=dot',
      '--reporter=json',
      `--outputFile=${files.vitest}`,
      ...vitestArgs,
    ],
    { TEST_TIMES_LOG: files.phases },
  )
  if (args.includes('--e2e')) {
    walls.playwright = run('npx', ['playwright', 'test', '--reporter=dot,json'], {
      E2E_PREBUILT: '1',
      PLAYWRIGHT_JSON_OUTPUT_NAME: files.playwright,
    })
  }
  console.log(
    `load average after: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  )
}

const seconds = (ms: number) => (ms / 1000).toFixed(1)
const pad = (text: string, width: number) => text.padEnd(width)
const lpad = (text: string, width: number) => text.padStart(width)

function projectOf(path: string): string {
  if (path.startsWith('tests/api/')) return 'api'
  if (path.startsWith('tests/scale/')) return 'scale'
  return 'unit'
}

if (existsSync(files.vitest)) {
  const report = JSON.parse(readFileSync(files.vitest, 'utf8')) as VitestReport
  const phases = existsSync(files.phases)
    ? readFileSync(files.phases, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Phase)
    : []
  const rows = report.testResults.map((result) => {
    const path = relative(ROOT, result.name)
    const tests = result.assertionResults.reduce((sum, test) => sum + (test.duration ?? 0), 0)
    const mine = phases.filter((phase) => relative(ROOT, phase.file) === path)
    const sum = (kind: Phase['phase']) =>
      mine.filter((phase) => phase.phase === kind).reduce((total, phase) => total + phase.ms, 0)
    return {
      path,
      project: projectOf(path),
      start: result.startTime,
      end: result.endTime,
      wall: result.endTime - result.startTime,
      count: result.assertionResults.length,
      tests,
      servers: mine.filter((phase) => phase.phase === 'start').length,
      database: sum('database'),
      serverStart: sum('start'),
      serverStop: sum('stop'),
    }
  })
  console.log('\n## Vitest by project (wall: first file start to last file end)\n')
  console.log('| project | files | tests | wall s | sum of files s |')
  console.log('|---|---|---|---|---|')
  for (const project of ['unit', 'api', 'scale']) {
    const mine = rows.filter((row) => row.project === project)
    if (mine.length === 0) continue
    const wall = Math.max(...mine.map((r) => r.end)) - Math.min(...mine.map((r) => r.start))
    const sum = mine.reduce((total, row) => total + row.wall, 0)
    const tests = mine.reduce((total, row) => total + row.count, 0)
    console.log(`| ${project} | ${mine.length} | ${tests} | ${seconds(wall)} | ${seconds(sum)} |`)
  }
  console.log(
    '\n## Vitest files, slowest first (s; hooks = file time outside its tests, with loading)\n',
  )
  console.log(
    `${pad('file', 52)} ${lpad('file', 6)} ${lpad('tests', 6)} ${lpad('hooks', 6)} ${lpad('servers', 8)} ${lpad('db copy', 8)} ${lpad('start', 6)} ${lpad('stop', 6)}`,
  )
  const sorted = rows.sort((a, b) => b.wall - a.wall)
  const SHOWN = 40
  for (const row of sorted.slice(0, SHOWN)) {
    console.log(
      `${pad(row.path, 52)} ${lpad(seconds(row.wall), 6)} ${lpad(seconds(row.tests), 6)} ${lpad(seconds(Math.max(0, row.wall - row.tests)), 6)} ${lpad(String(row.servers), 8)} ${lpad(seconds(row.database), 8)} ${lpad(seconds(row.serverStart), 6)} ${lpad(seconds(row.serverStop), 6)}`,
    )
  }
  if (sorted.length > SHOWN) {
    const rest = sorted.slice(SHOWN)
    console.log(
      `... and ${rest.length} more files, ${seconds(rest.reduce((sum, row) => sum + row.wall, 0))} s in all`,
    )
  }
  const api = rows.filter((row) => row.project === 'api')
  const total = (pick: (row: (typeof rows)[number]) => number) =>
    seconds(api.reduce((sum, row) => sum + pick(row), 0))
  console.log(
    `\nAPI files in all: ${total((r) => r.wall)} s; tests ${total((r) => r.tests)} s; ${api.reduce((n, r) => n + r.servers, 0)} servers: database copies ${total((r) => r.database)} s, starts ${total((r) => r.serverStart)} s, stops ${total((r) => r.serverStop)} s`,
  )
}

if (existsSync(files.playwright)) {
  const report = JSON.parse(readFileSync(files.playwright, 'utf8')) as PlaywrightReport
  const byFile = new Map<string, { tests: number; ms: number }>()
  const visit = (suite: PlaywrightSuite) => {
    for (const spec of suite.specs) {
      for (const test of spec.tests) {
        const entry = byFile.get(suite.file) ?? { tests: 0, ms: 0 }
        entry.tests++
        entry.ms += test.results.reduce((sum, result) => sum + result.duration, 0)
        byFile.set(suite.file, entry)
      }
    }
    for (const child of suite.suites ?? []) visit(child)
  }
  for (const suite of report.suites) visit(suite)
  const tests = [...byFile.values()].reduce((sum, entry) => sum + entry.tests, 0)
  console.log(
    `\n## Playwright: ${byFile.size} files, ${tests} tests, ${seconds(report.stats.duration)} s wall\n`,
  )
  for (const [file, entry] of [...byFile].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(
      `${pad(file, 40)} ${lpad(String(entry.tests), 4)} tests ${lpad(seconds(entry.ms), 7)} s`,
    )
  }
}
if (Object.keys(walls).length > 0) {
  console.log(
    `\nWall: ${Object.entries(walls)
      .map(([name, s]) => `${name} ${s.toFixed(0)} s`)
      .join(', ')}`,
  )
}
