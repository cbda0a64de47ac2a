import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

// The server runs from its TypeScript sources (the tests and the tools, through tsx) or from the
// bundle `npm run build` makes in build/node (production: no compiler in the process, about 50 MB
// less memory). The files it reads or starts beside its code are found from the project's root, which
// both sit under at a known depth: src/server/platform/paths.ts, build/node/main.mjs.
const HERE = fileURLToPath(import.meta.url)

/** Whether this is the bundle in build/node rather than the TypeScript sources. */
export const BUNDLED = !HERE.endsWith('.ts')

export const PROJECT_ROOT = resolve(dirname(HERE), BUNDLED ? '../..' : '../../..')

/** A file of the sources (SQL, plain JavaScript, catalogues), read where it is in either mode. */
export const sourcePath = (...parts: string[]): string => join(PROJECT_ROOT, 'src', ...parts)

/** Where `npm run build` puts the server's bundle. */
export const BUNDLE_DIR = join(PROJECT_ROOT, 'build', 'node')
