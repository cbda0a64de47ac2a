// npm run trace [path]: a Chrome performance trace of a first visit, at 4x CPU slowdown (Lighthouse's
// mobile preset), against the production build served by the real server on a fresh embedded database.
// Prints what to look for in a first visit's trace: the main thread's longest tasks with what filled them,
// every forced reflow (style or layout asked for by running JavaScript, with the script and function
// that asked), and the largest style recalculations (elements touched). The default path is what a
// billboard's QR code opens (/{event}?device=…, redirected to the location step). TRACE_FILE=file.json
// keeps the raw trace for DevTools' Performance panel; TRACE_INVALIDATIONS=1 adds style invalidation
// tracking (slower commits: see below).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { startServer } from '../src/server/main.ts'
import { chromiumArgs, findChromium } from '../tests/setup/find-chromium.ts'

const CPU_SLOWDOWN = Number(process.env.TRACE_CPU_SLOWDOWN ?? 4)

type TraceEvent = {
  name: string
  cat: string
  ph: string
  ts: number
  dur?: number
  pid: number
  tid: number
  args?: {
    data?: Record<string, unknown> & {
      stackTrace?: { functionName: string; url: string; lineNumber: number }[]
      url?: string
      functionName?: string
    }
    beginData?: {
      frame?: string
      stackTrace?: { functionName: string; url: string; lineNumber: number }[]
    }
    elementCount?: number
  }
}

const dataDir = mkdtempSync(join(tmpdir(), 'shouts-trace-'))
const server = await startServer({ port: 0, dataDir, env: { LOG_LEVEL: 'error' } })
const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH ?? findChromium(),
  args: chromiumArgs,
})
try {
  const path = process.argv[2] ?? '/share-the-love?device=paris-opera-1'
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  })
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
  await browser.startTracing(page, {
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'disabled-by-default-devtools.timeline.stack',
      'v8.execute',
      'blink.user_timing',
      'loading',
      'disabled-by-default-v8.cpu_profiler',
      // Style invalidation tracking records a stack trace for every attribute or class change: it
      // made React's commit after hydration look 3-4 times longer than it is (a 575 ms task, 85 %
      // in setProp, that Lighthouse, which does not turn it on, saw at ~150 ms). TRACE_INVALIDATIONS=1
      // turns it on, to find what invalidated a style.
      ...(process.env.TRACE_INVALIDATIONS === '1'
        ? ['disabled-by-default-devtools.timeline.invalidationTracking']
        : []),
    ],
  })
  await page.goto(`${server.url}${path}`, { waitUntil: 'load' })
  // the app starts after the first paint and hydrates in slices: wait for it, then a quiet second
  await page.waitForFunction(() => document.documentElement.dataset.appVersion !== undefined)
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(1500)
  const buffer = await browser.stopTracing()
  if (process.env.TRACE_FILE) writeFileSync(process.env.TRACE_FILE, buffer)
  const { traceEvents } = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] }

  // the page's renderer main thread: where the page's document was committed (the browser's own
  // pages, such as a new tab, have renderers too)
  const commit = traceEvents.find(
    (e) =>
      e.name === 'CommitLoad' &&
      e.args?.data?.isMainFrame === true &&
      String(e.args.data.url ?? '').startsWith(server.url),
  )
  const rendererMain = commit
  if (!rendererMain) throw new Error('no renderer main thread in the trace')
  const onMain = traceEvents
    .filter((e) => e.pid === rendererMain.pid && e.tid === rendererMain.tid && e.ph === 'X')
    .sort((a, b) => a.ts - b.ts)
  const start = onMain.find((e) => e.name === 'RunTask')?.ts ?? 0
  const ms = (us: number) => `${(us / 1000).toFixed(0)} ms`
  const at = (e: TraceEvent) => `at ${ms(e.ts - start)}`
  const within = (outer: TraceEvent, inner: TraceEvent) =>
    inner !== outer &&
    inner.ts >= outer.ts &&
    inner.ts + (inner.dur ?? 0) <= outer.ts + (outer.dur ?? 0)

  const tasks = onMain.filter((e) => e.name === 'RunTask' && (e.dur ?? 0) > 0)
  const longest = [...tasks].sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 8)
  console.log(
    `${path}: ${tasks.length} main-thread tasks at ${CPU_SLOWDOWN}x CPU slowdown (times as slowed)`,
  )
  console.log('longest tasks:')
  for (const task of longest) {
    // what the task did, by the kinds of work directly inside it (self time not split further)
    const kinds = new Map<string, number>()
    for (const e of onMain) {
      if (!within(task, e)) continue
      if (
        [
          'EvaluateScript',
          'v8.compileModule',
          'v8.evaluateModule',
          'FunctionCall',
          'TimerFire',
          'FireAnimationFrame',
          'UpdateLayoutTree',
          'Layout',
          'ParseHTML',
          'Paint',
          'PrePaint',
          'Layerize',
          'MajorGC',
          'MinorGC',
          'RunMicrotasks',
          'ParseAuthorStyleSheet',
          'HitTest',
        ].includes(e.name)
      ) {
        kinds.set(e.name, (kinds.get(e.name) ?? 0) + (e.dur ?? 0))
      }
    }
    const parts = [...kinds]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([k, d]) => `${k} ${ms(d)}`)
    const script = onMain.find(
      (e) => within(task, e) && (e.name === 'FunctionCall' || e.name === 'EvaluateScript'),
    )
    const where = script?.args?.data?.url
      ? ` (${String(script.args.data.url).replace(server.url, '')})`
      : ''
    console.log(`  ${ms(task.dur ?? 0)} ${at(task)}${where}: ${parts.join(', ')}`)
  }

  // A forced reflow: style or layout computed while JavaScript runs (a script read a size or a style
  // the page had made stale), instead of once in the frame's own rendering step.
  const scripts = onMain.filter((e) =>
    ['FunctionCall', 'EvaluateScript', 'v8.evaluateModule', 'RunMicrotasks', 'TimerFire'].includes(
      e.name,
    ),
  )
  // Only the page's own frame: an SVG picture is a little document of its own, laid out when drawn.
  const mainFrame = commit.args?.data?.frame
  const ofPage = (e: TraceEvent) => e.args?.beginData?.frame === mainFrame
  const forced = onMain.filter(
    (e) =>
      (e.name === 'Layout' || e.name === 'UpdateLayoutTree') &&
      ofPage(e) &&
      scripts.some((s) => within(s, e)),
  )
  console.log(`forced reflows (style or layout inside JavaScript): ${forced.length}`)
  for (const e of forced.sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0)).slice(0, 10)) {
    const stack = e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace ?? []
    const top = stack
      .slice(0, 3)
      .map(
        (f) =>
          `${f.functionName || '(anonymous)'} ${f.url.replace(server.url, '')}:${f.lineNumber}`,
      )
      .join(' < ')
    console.log(
      `  ${e.name} ${ms(e.dur ?? 0)} ${at(e)}${e.args?.elementCount ? `, ${e.args.elementCount} elements` : ''}: ${top || 'no stack'}`,
    )
  }
  const recalcs = onMain
    .filter((e) => e.name === 'UpdateLayoutTree' && ofPage(e))
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, 5)
  console.log('largest style recalculations:')
  for (const e of recalcs) {
    console.log(
      `  ${ms(e.dur ?? 0)} ${at(e)}, ${e.args?.elementCount ?? '?'} elements${forced.includes(e) ? ' (forced)' : ''}`,
    )
  }
  const layouts = onMain
    .filter((e) => e.name === 'Layout' && ofPage(e))
    .sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0))
    .slice(0, 5)
  console.log('largest layouts:')
  for (const e of layouts) {
    console.log(`  ${ms(e.dur ?? 0)} ${at(e)}${forced.includes(e) ? ' (forced)' : ''}`)
  }
} finally {
  await browser.close()
  await server.close()
  rmSync(dataDir, { recursive: true, force: true })
}
