// The server's bundle for production (`npm run build`): src/server/main.ts and the content worker's
// entry, with the domain, contract and locale code they import, as plain JavaScript in build/node. The
// packages stay in node_modules, imported as they are (the heavy ones lazily, as in the sources). The
// server then runs without a compiler in its process: a faster start and about 50 MB less memory than
// through tsx. Files read beside the code (SQL migrations, catalogues, the database thread's script)
// are read from src (platform/paths.ts), but the Lingui catalogs the server says its words from, which
// are compiled here as Lingui compiles the app's (src/server/platform/i18n.ts): one JSON file a locale.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { compileMessage } from '@lingui/message-utils/compileMessage'
import { build } from 'esbuild'
import { LOCALES } from '../src/domain/locale.ts'
import { COMPILED_CATALOGS_DIR, sourceMessages } from '../src/server/platform/i18n.ts'
import { BUNDLE_DIR, PROJECT_ROOT } from '../src/server/platform/paths.ts'

rmSync(BUNDLE_DIR, { recursive: true, force: true })
const result = await build({
  entryPoints: {
    main: join(PROJECT_ROOT, 'src/server/main.ts'),
    'content-worker-main': join(PROJECT_ROOT, 'src/server/content/content-worker-main.ts'),
  },
  outdir: BUNDLE_DIR,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  // a stack trace in the log points at the sources with `node --enable-source-maps`
  sourcemap: true,
  logLevel: 'warning',
  metafile: true,
})
const bytes = Object.entries(result.metafile.outputs)
  .filter(([file]) => file.endsWith('.mjs'))
  .reduce((sum, [, output]) => sum + output.bytes, 0)
console.log(`server bundle: ${BUNDLE_DIR} (${Math.round(bytes / 1024)} KB)`)

// the catalogs, compiled: the bundle's process carries no message compiler
mkdirSync(COMPILED_CATALOGS_DIR, { recursive: true })
for (const locale of LOCALES) {
  const compiled = Object.fromEntries(
    Object.entries(sourceMessages(locale)).map(([id, message]) => [id, compileMessage(message)]),
  )
  writeFileSync(join(COMPILED_CATALOGS_DIR, `${locale}.json`), JSON.stringify(compiled))
}
console.log(`server catalogs: ${COMPILED_CATALOGS_DIR} (${LOCALES.join(', ')})`)
