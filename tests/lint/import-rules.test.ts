import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'

// The layers, and the server's modules, are enforced by Biome's noRestrictedImports (biome.json,
// docs/architecture.md).
// Each case writes a file that breaks one rule into the folder the rule guards, lints it with the
// project's own Biome and configuration, and expects that rule's message; the file is removed whatever
// happens. The last cases import only what their layer allows and must lint clean.

const root = join(import.meta.dirname, '..', '..')
const biome = join(root, 'node_modules', '.bin', 'biome')

type Diagnostic = { category: string; message: string; severity: string }

/** Writes `source` at a unique name in `folder`, lints it, and removes it (and any folder it made). */
function lintProbe(folder: string, ext: 'ts' | 'tsx', source: string): Diagnostic[] {
  const name = `__layer-probe-${process.pid}-${randomBytes(4).toString('hex')}.${ext}`
  const file = join(root, folder, name)
  // a probe in a sub-folder that does not exist yet: make it, and remove exactly that folder after
  const madeFolder = mkdirSync(dirname(file), { recursive: true })
  try {
    writeFileSync(file, source)
    const run = spawnSync(biome, ['lint', '--reporter=json', relative(root, file)], {
      cwd: root,
      encoding: 'utf8',
    })
    const start = run.stdout.indexOf('{')
    if (start < 0) throw new Error(`biome printed no report: ${run.stderr}`)
    const report = JSON.parse(run.stdout.slice(start)) as { diagnostics: Diagnostic[] }
    return report.diagnostics
  } finally {
    rmSync(madeFolder ?? file, { recursive: true, force: true })
  }
}

const restricted = (diagnostics: Diagnostic[]) =>
  diagnostics.filter((d) => d.category === 'lint/style/noRestrictedImports').map((d) => d.message)

const probe = (...imports: string[]) =>
  `${imports.map((from, i) => `import * as m${i} from '${from}'`).join('\n')}\nexport const probe = [${imports.map((_, i) => `m${i}`).join(', ')}]\n`

const DOMAIN =
  'src/domain imports only src/domain, valibot, temporal-polyfill and libphonenumber-js (phone.ts)'
const CONTRACT = 'src/contract imports only src/domain and valibot'
const LOCALE = 'src/locale imports only src/domain'
const SW = 'sw/ imports only sw/, src/contract, src/domain, workbox, idb-keyval and valibot'
const SERVER = 'src/server imports no app or service-worker code'
const APP_NODE = 'src/app runs in the browser: no Node modules'
const APP_SERVER = 'src/app imports no server code'
const FEATURE = 'a feature imports no other feature'
const UI = 'app/ui imports no stores and no features'
const LIB = 'app/lib imports no stores and no features'
const STORES = 'app/stores import no features and no ui'
const SHOP_PLAYER = 'a feature imports no player or console code'
const CONSOLE = 'it imports no shop features, stores or player code'
const PLAYER = 'it imports no shop features or stores'
const MODULE = "a module never imports another module's repo.ts or routes.ts"
const ROOT = 'the composition root builds each module from its service and read model'

const broken: [rule: string, folder: string, ext: 'ts' | 'tsx', from: string, message: string][] = [
  ['domain → React', 'src/domain', 'ts', 'react', DOMAIN],
  ['domain → Node', 'src/domain', 'ts', 'node:fs', DOMAIN],
  ['domain → contract', 'src/domain', 'ts', '../contract/catalogue', DOMAIN],
  ['domain → app', 'src/domain', 'ts', '../app/stores/order', DOMAIN],
  ['contract → app', 'src/contract', 'ts', '../app/lib/api', CONTRACT],
  ['contract → server', 'src/contract', 'ts', '../server/main.ts', CONTRACT],
  ['contract → Node', 'src/contract', 'ts', 'node:path', CONTRACT],
  ['contract → React', 'src/contract', 'ts', 'react', CONTRACT],
  ['locale → app', 'src/locale', 'ts', '../app/locale/i18n', LOCALE],
  ['locale → Node', 'src/locale', 'ts', 'node:fs', LOCALE],
  ['sw → app', 'sw', 'ts', '../src/app/lib/pwa', SW],
  ['sw → server', 'sw', 'ts', '../src/server/main.ts', SW],
  ['sw → React', 'sw', 'ts', 'react', SW],
  ['server → app', 'src/server', 'ts', '../app/lib/api.ts', SERVER],
  ['server → sw', 'src/server/platform', 'ts', '../../../sw/cache-policy.ts', SERVER],
  ['app → Node', 'src/app/lib', 'ts', 'node:fs', APP_NODE],
  ['app → Node without its prefix', 'src/app/routes', 'tsx', 'fs', APP_NODE],
  ['app → server', 'src/app', 'ts', '../server/main.ts', APP_SERVER],
  ['feature → feature', 'src/app/features/checkout', 'ts', '../template/template-actions', FEATURE],
  [
    'feature → feature, through app/',
    'src/app/features/review',
    'tsx',
    '../../features/checkout/checkout-actions',
    FEATURE,
  ],
  [
    'feature → feature, from a sub-folder',
    'src/app/features/checkout/__layer-probe-folder',
    'tsx',
    '../../template/template-actions',
    FEATURE,
  ],
  ['ui → stores', 'src/app/ui', 'tsx', '../stores/order', UI],
  ['feature → player', 'src/app/features/shouts', 'ts', '../../player/engine', SHOP_PLAYER],
  ['player → features', 'src/app/player', 'ts', '../features/shouts/shouts-actions', PLAYER],
  ['player → stores', 'src/app/player', 'ts', '../stores/order', PLAYER],
  ['player → server', 'src/app/player', 'ts', '../../server/main.ts', APP_SERVER],
  ['feature → console', 'src/app/features/shouts', 'ts', '../../ops/session', SHOP_PLAYER],
  ['console → features', 'src/app/ops', 'ts', '../features/shouts/shouts-actions', CONSOLE],
  ['console → stores', 'src/app/ops', 'ts', '../stores/order', CONSOLE],
  ['console → player', 'src/app/ops', 'ts', '../player/engine', CONSOLE],
  ['console → server', 'src/app/ops', 'ts', '../../server/main.ts', APP_SERVER],
  ['ui → features', 'src/app/ui', 'tsx', '../features/checkout/checkout-actions', UI],
  ['lib → stores', 'src/app/lib', 'ts', '../stores/order', LIB],
  ['lib → features', 'src/app/lib', 'ts', '../features/template/template-actions', LIB],
  ['stores → features', 'src/app/stores', 'ts', '../features/shouts/shouts-actions', STORES],
  ['stores → ui', 'src/app/stores', 'ts', '../ui/step-indicator', STORES],
  ['a narrower app rule keeps the app-wide ones', 'src/app/ui', 'tsx', 'node:fs', APP_NODE],
  ["module → another module's repo", 'src/server/ops', 'ts', '../order/repo.ts', MODULE],
  [
    "module → another module's repo, no extension",
    'src/server/mail',
    'ts',
    '../order/repo',
    MODULE,
  ],
  ["module → another module's routes", 'src/server/order', 'ts', '../catalogue/routes.ts', MODULE],
  [
    "module sub-folder → a module's repo",
    'src/server/platform/db',
    'ts',
    '../../order/repo.ts',
    MODULE,
  ],
  [
    "advertisers' sub-folder → another module's repo",
    'src/server/advertisers/campaigns',
    'ts',
    '../../order/repo.ts',
    MODULE,
  ],
  [
    "advertisers' sub-folder → another module's routes",
    'src/server/advertisers/billing',
    'ts',
    '../../catalogue/routes',
    MODULE,
  ],
  [
    "advertisers' sub-folder keeps the server-wide rule",
    'src/server/advertisers/campaigns',
    'ts',
    '../../../app/lib/api.ts',
    SERVER,
  ],
  ['composition root → a repo', 'src/server', 'ts', './order/repo.ts', ROOT],
  ['a module keeps the server-wide rule', 'src/server/order', 'ts', '../../app/lib/api.ts', SERVER],
]

describe('import rules (biome.json)', () => {
  it.each(broken)('fail the lint: %s', (_rule, folder, ext, from, message) => {
    const messages = restricted(lintProbe(folder, ext, probe(from)))
    expect(messages).toHaveLength(1)
    expect(messages[0]).toContain(message)
    expect(messages[0]).toContain('docs/architecture.md')
  })

  const allowed: [layer: string, folder: string, ext: 'ts' | 'tsx', from: string[]][] = [
    [
      'domain',
      'src/domain',
      'ts',
      ['./slots', 'valibot', 'temporal-polyfill', 'libphonenumber-js/min'],
    ],
    ['contract', 'src/contract', 'ts', ['./endpoint', '../domain/problems', 'valibot']],
    ['locale', 'src/locale', 'ts', ['./po-reader', '../domain/locale']],
    [
      'sw',
      'sw',
      'ts',
      [
        './cache-policy',
        '../src/contract/sw',
        '../src/domain/locale',
        'workbox-routing',
        'idb-keyval',
      ],
    ],
    [
      'server',
      'src/server/platform',
      'ts',
      ['../../locale/po-reader.ts', '../../contract/index.ts', '../../domain/locale.ts', 'node:fs'],
    ],
    [
      'a server module',
      'src/server/ops',
      'ts',
      [
        './service.ts',
        '../order/service.ts',
        '../order/reads.ts',
        '../payment/reads.ts',
        '../platform/db/sql.ts',
      ],
    ],
    [
      "an advertisers' sub-folder (one module: its sub-folders share its tables)",
      'src/server/advertisers/billing',
      'ts',
      [
        './repo.ts',
        '../campaigns/repo.ts',
        '../accounts/repo',
        '../service.ts',
        '../../order/service.ts',
      ],
    ],
    [
      'the composition root',
      'src/server',
      'ts',
      ['./order/service.ts', './order/reads.ts', './order/routes.ts', './platform/scheduler.ts'],
    ],
    [
      'a feature',
      'src/app/features/checkout',
      'tsx',
      [
        './checkout-actions',
        '../../ui/button',
        '../../lib/api',
        '../../stores/order',
        '../../locale/i18n',
        '../../../contract/order',
        '../../../domain/money',
        'react',
      ],
    ],
    [
      'ui',
      'src/app/ui',
      'tsx',
      ['./button', '../lib/steps', '../locale/i18n', '../../contract/content'],
    ],
    ['stores', 'src/app/stores', 'ts', ['./ui', './order', '../lib/api', '../../domain/storage']],
  ]

  it.each(allowed)('pass the lint: what %s may import', (_layer, folder, ext, from) => {
    expect(restricted(lintProbe(folder, ext, probe(...from)))).toEqual([])
  })
})
