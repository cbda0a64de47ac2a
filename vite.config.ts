import { readFileSync } from 'node:fs'
import { relative, resolve } from 'node:path'
import { createCompiledCatalog, getCatalogForFile, getCatalogs } from '@lingui/cli/api'
import { getConfig } from '@lingui/conf'
import { generateMessageId } from '@lingui/message-utils/generateMessageId'
import { lingui } from '@lingui/vite-plugin'
import babel from '@rolldown/plugin-babel'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin, parseAst, type UserConfig } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'
import { FIRST_SCREEN_ROUTES } from './src/app/lib/first-screen.ts'
import { type CatalogPart, catalogPartEntries } from './src/locale/catalog-parts.ts'
import { precompressDir } from './src/server/platform/precompress.ts'

/** The console's modules: its pages, its routes' split parts and its catalogs. */
const CONSOLE_MODULE =
  /\/src\/app\/ops\/|\/src\/app\/routes\/ops[._][^?]*\?tsr-split|\/src\/locale\/ops\//

// The version shown in the app and baked into the service worker; a new value is a new deploy.
const appVersion = process.env.APP_VERSION ?? process.env.npm_package_version ?? '0.0.0'

/**
 * Lighthouse: the app's one stylesheet (about 5 KB compressed) is inlined into index.html, so
 * the first paint does not wait for a render-blocking request. The server's CSP allows inline styles
 * (src/server/platform/http/security.ts); the file stays in the build for the service worker's precache.
 */
function inlineEntryCss(): Plugin {
  return {
    name: 'shouts:inline-entry-css',
    apply: 'build',
    enforce: 'post',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const bundle = ctx.bundle
        if (!bundle) return html
        return html.replace(
          /<link rel="stylesheet"[^>]*href="\/(assets\/[^"]+\.css)"[^>]*>/g,
          (tag, file: string) => {
            const asset = bundle[file]
            if (asset?.type !== 'asset' || /url\(/.test(String(asset.source))) return tag
            return `<style>${String(asset.source)}</style>`
          },
        )
      },
    },
  }
}

/**
 * The built text files get .br and .gz siblings (Brotli 11, gzip 9), which the server
 * sends as they are (src/server/platform/static.ts). After every other plugin's closeBundle, so the
 * service worker the PWA plugin writes there is compressed too.
 */
function precompress(): Plugin {
  let outDir = 'dist'
  return {
    name: 'shouts:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir)
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        await precompressDir(outDir)
      },
    },
  }
}

/**
 * A locale's catalog in two parts, `messages.po?first` and `messages.po?rest` (which
 * messages go where: src/locale/catalog-parts.ts, from the source catalog's `#:` origins), compiled
 * as @lingui/vite-plugin compiles a whole one (`messages.po`, which the tests and tools still use).
 */
function catalogParts(): Plugin {
  const config = getConfig({})
  const rootDir = config.rootDir ?? process.cwd()
  const sourceCatalog = resolve(rootDir, 'src/locale/locales/en/messages.po')
  return {
    name: 'shouts:catalog-parts',
    async transform(_code, id) {
      const match = /^(.*\/messages\.po)\?(first|rest)$/.exec(id)
      const [, file, part] = match ?? []
      if (!file || !part) return null
      const found = getCatalogForFile(relative(rootDir, file), await getCatalogs(config))
      if (!found) throw new Error(`${file} is no catalog of lingui.config.ts`)
      this.addWatchFile(file)
      this.addWatchFile(sourceCatalog)
      // a message's id: its own (a problem's code), else the one Lingui makes from its msgid
      const keep = new Set(
        catalogPartEntries(readFileSync(sourceCatalog, 'utf8'), part as CatalogPart).map((e) =>
          e.explicitId ? e.msgid : generateMessageId(e.msgid),
        ),
      )
      const { messages } = await found.catalog.getTranslations(found.locale, {
        fallbackLocales: config.fallbackLocales ?? {},
        sourceLocale: config.sourceLocale ?? 'en',
      })
      const partMessages = Object.fromEntries(
        Object.entries(messages).filter(([messageId]) => keep.has(messageId)),
      )
      const { source, errors } = createCompiledCatalog(found.locale, partMessages, {
        namespace: 'es',
      })
      if (errors.length > 0) throw new Error(`${file}: ${errors.map((e) => e.id).join(', ')}`)
      return { code: source, map: null, moduleType: 'js' }
    },
  }
}

/**
 * An endpoint of the contract (src/contract/endpoint.ts) carries, beside what a call needs (method,
 * path, schemas), what only the server and its OpenAPI document read: its name (the operationId),
 * who may call it, its summary, the meaning of each error status and the headers it reads. The
 * browser never reads those: in the client build the transform blanks them out of every
 * `endpoint({...})` literal of src/contract, keeping every line and column where it was (the source
 * maps stay true). About 0.8 KB of the first screen, and as much of the later chunks and the console.
 */
const SERVER_ONLY = new Set(['name', 'access', 'summary', 'errors', 'headers'])
function serverOnlyEndpointFieldsOut(): Plugin {
  type Node = { type?: string; start: number; end: number; [key: string]: unknown }
  const isNode = (value: unknown): value is Node =>
    typeof value === 'object' && value !== null && 'type' in value
  return {
    name: 'shouts:server-only-endpoint-fields-out',
    apply: 'build',
    transform: {
      filter: { id: /\/src\/contract\/[^/]+\.ts$/, code: 'endpoint(' },
      handler(code) {
        const cuts: Array<[number, number]> = []
        const visit = (node: unknown): void => {
          if (Array.isArray(node)) {
            for (const item of node) visit(item)
            return
          }
          if (!isNode(node)) return
          const callee = node.callee as Node | undefined
          const [argument] = (node.arguments as Node[] | undefined) ?? []
          if (
            node.type === 'CallExpression' &&
            callee?.type === 'Identifier' &&
            callee.name === 'endpoint' &&
            argument?.type === 'ObjectExpression'
          ) {
            for (const property of argument.properties as Node[]) {
              const key = property.key as Node | undefined
              if (property.type === 'Property' && SERVER_ONLY.has(String(key?.name))) {
                cuts.push([
                  property.start,
                  code[property.end] === ',' ? property.end + 1 : property.end,
                ])
              }
            }
          }
          for (const [key, value] of Object.entries(node)) if (key !== 'parent') visit(value)
        }
        visit(parseAst(code, { lang: 'ts' }))
        if (cuts.length === 0) return null
        let out = code
        for (const [start, end] of cuts)
          out = out.slice(0, start) + out.slice(start, end).replace(/[^\n]/g, ' ') + out.slice(end)
        return { code: out, map: null }
      },
    },
  }
}

// Plugin order matters (docs/development.md, Toolchain): router code-splitting first, then React,
// then the Lingui macro through Babel, then the .po loader, then the PWA.
const appPlugins = () => [
  tanstackRouter({
    target: 'react',
    autoCodeSplitting: true,
    // the first screens' routes are not split from the app's chunk: their code is needed before the
    // server's page can hydrate, so a chunk of their own would only be one request more
    codeSplittingOptions: {
      splitBehavior: ({ routeId }) => (FIRST_SCREEN_ROUTES.has(routeId) ? [] : undefined),
    },
    routesDirectory: './src/app/routes',
    generatedRouteTree: './src/app/route-tree.gen.ts',
  }),
  react(),
  babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
  lingui(),
  catalogParts(),
]

/**
 * The app's server build (`vite build --ssr src/app/entry-server.tsx`), which the server
 * loads at run time to render the first screen (src/server/platform/ssr.ts). It goes to build/server,
 * outside dist/: neither served nor precached. Its dependencies stay in node_modules. No PWA and no
 * CSS inlining: the page template is the client build's index.html.
 */
const serverBuild = {
  define: { __APP_VERSION__: JSON.stringify(appVersion) },
  plugins: appPlugins(),
  build: {
    ssr: true,
    outDir: 'build/server',
    emptyOutDir: true,
    copyPublicDir: false,
    sourcemap: true,
    rolldownOptions: { input: 'src/app/entry-server.tsx' },
  },
} satisfies UserConfig

// the chunks of the advertisers' routes, named by their route files (src/app/routes/_default), and
// their loaders'
const ADVERTISER_ROUTE_CHUNK =
  /(^|\/)assets\/(account|advertise|advertiser-loaders|_advertiser|campaigns\.\w+|_proposalGuid)-[\w-]+\.js$/

const clientBuild = {
  define: { __APP_VERSION__: JSON.stringify(appVersion) },
  resolve: {
    alias: [
      // TanStack's store asks for the shim that brings useSyncExternalStore to React < 18; React 19
      // has it, and the shim's fallback would be half a kilobyte of the first screen for nothing
      {
        find: /^use-sync-external-store\/shim\/with-selector(\.js)?$/,
        replacement: 'use-sync-external-store/with-selector.js',
      },
    ],
  },
  plugins: [
    ...appPlugins(),
    serverOnlyEndpointFieldsOut(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // registered by src/app/lib/pwa.ts (production builds only)
      injectRegister: false,
      injectManifest: {
        // every route's code chunk, the maplibre worker (.mjs), CSS and the shell (docs/development.md:
        // adding png/webmanifest here would duplicate the entries the plugin adds itself)
        globPatterns: ['**/*.{js,mjs,css,html}'],
        // The operators' console is not the shoppers' to carry offline, and must never be
        // served stale: its chunks (assets/ops-*, assets/ops/, see chunkFileNames) stay out. Nor
        // is the code the first screens do not need, which a shopper's first visit would download
        // beside the flow on venue data: the map (maplibre and its worker), the charts and the
        // advertisers' pages; the worker keeps each once it is used (sw/cache-policy.ts 'build-file')
        globIgnores: [
          'assets/ops-*',
          'assets/ops/**',
          'assets/billboard-map-*',
          'assets/maplibre-gl-worker-*',
          'assets/chart-*',
          'assets/advertisers-*',
          'assets/account-*',
          'assets/campaigns._-*',
          'assets/_proposalGuid-*',
        ],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      // One manifest for the three locale prefixes: scope '/' covers /, /fr and /de;
      // start_url '/?source=pwa' opens the app, which resumes the last step (with its locale prefix)
      // within the order lifetime, else the home page in the last language used
      // (src/app/lib/resume.ts). Per-locale manifests would make three separate installs.
      manifest: {
        id: '/',
        name: 'Shouts: Share the Gift of a Billboard',
        short_name: 'Shouts',
        description:
          'Put your message on a digital billboard for the occasion: pick a billboard, a design and a time.',
        lang: 'en',
        start_url: '/?source=pwa',
        scope: '/',
        display: 'standalone',
        orientation: 'portrait',
        theme_color: '#ff6b1a',
        background_color: '#ffffff',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
          {
            src: '/icons/maskable-192.png',
            sizes: '192x192',
            type: 'image/png',
            purpose: 'maskable',
          },
          {
            src: '/icons/maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
        shortcuts: [
          {
            name: 'Live event',
            short_name: 'Live event',
            description: 'Open the event that is on now',
            url: '/?source=pwa&shortcut=live',
            icons: [{ src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' }],
          },
        ],
      },
      devOptions: { enabled: false },
    }),
    inlineEntryCss(),
    precompress(),
  ],
  build: {
    outDir: 'dist',
    sourcemap: true,
    // the server reads it to preload the route's chunks and the locale's catalog
    // (src/server/platform/prerender.ts)
    manifest: true,
    modulePreload: {
      // every browser the shop supports has modulepreload (the polyfill is ~0.4 KB of the first screen)
      polyfill: false,
      // The entry's import of the app: the server lists the app's chunks as modulepreload links in
      // the page itself (src/server/platform/prerender.ts), earlier than the entry could; offline
      // they come from the service worker's precache. Other lazy imports keep Vite's preloading.
      // The console's chunk preloads only its own files (its code and stylesheet); what it
      // shares with the shop arrives through its imports. A shorter list in the shop's first chunk.
      resolveDependencies: (file, deps, { hostId, hostType }) => {
        if (hostType === 'js' && /(^|\/)assets\/index-[\w-]+\.js$/.test(hostId)) return []
        if (/(^|\/)assets\/ops\//.test(file))
          return deps.filter((dep) => /(^|\/)assets\/ops[/-]/.test(dep))
        // The advertisers' routes (/account, /campaigns/…, /proposal/…) likewise preload only the
        // advertisers' own chunks and stylesheet: the rest arrives through their imports
        if (ADVERTISER_ROUTE_CHUNK.test(file))
          return deps.filter((dep) => /(^|\/)assets\/advertisers-/.test(dep))
        // Not the imported chunk itself (its import asks for it at once) nor what is loaded before
        // any chunk imports lazily (the bundler's runtime, the boot chunk): each listed file is a
        // name in the importing chunk, the first screen's among them
        return deps.filter(
          (dep) => dep !== file && !/(^|\/)assets\/(rolldown-runtime|boot)-[\w-]+\.js$/.test(dep),
        )
      },
    },
    rolldownOptions: {
      output: {
        // Every chunk made only of the console's code or catalogs goes to assets/ops/,
        // which the service worker does not precache (globIgnores above)
        chunkFileNames: (chunk) =>
          chunk.moduleIds.length > 0 && chunk.moduleIds.every((id) => CONSOLE_MODULE.test(id))
            ? 'assets/ops/[name]-[hash].js'
            : 'assets/[name]-[hash].js',
        codeSplitting: {
          groups: [
            // What the entry (src/app/main.tsx) shares with the app goes in a chunk of its own: were the
            // app to import the entry chunk, every lazy import would list the entry's stylesheet as a
            // dependency and fetch again the CSS that index.html already has inlined.
            { name: 'boot', test: /vite\/preload-helper|src\/domain\/storage\.ts/, priority: 2 },
            // The first screen is one chunk: the app (src/app/start.tsx) with everything it
            // imports, React and the router among it, and the first screens' routes (not split,
            // FIRST_SCREEN_ROUTES). About twenty small chunks cost more bytes (each compressed
            // alone) and more requests on a phone; the later steps import what they share with it
            // from this chunk, which is loaded by then. Only static imports are followed: the later
            // steps, the map, Stripe and the catalogs stay their own chunks.
            { name: 'app', test: /src\/app\/start\.tsx$/, priority: 1 },
            // The shop's components that no first screen shows (the later steps' text area,
            // checkbox, skeletons, price totals, …) are one chunk, not a sub-kilobyte chunk each
            {
              name: 'ui',
              test: /src\/app\/ui\//,
              includeDependenciesRecursively: false,
            },
            // The operators' console is one chunk of its own (its routes' pages and
            // src/app/ops), which the shop never loads; its catalogs stay one chunk per language.
            // A page it imports lazily (the Billboards page) is a chunk of its own inside it.
            {
              name: 'ops-billboards',
              test: /src\/app\/ops\/billboards[-.]/,
              priority: 3,
              includeDependenciesRecursively: false,
            },
            {
              name: 'ops',
              test: /src\/app\/ops\/|src\/app\/routes\/ops[._][^?]*\?tsr-split/,
              priority: 1,
              // only the console's own modules: what it shares with the shop (the order contract,
              // money, …) must not land in a chunk the worker does not precache, or the shop's later
              // steps would load the console's chunk and stylesheet, and fail offline
              includeDependenciesRecursively: false,
            },
          ],
        },
      },
    },
    // the update e2e test rebuilds in place while the old version is open: keep old chunks
    emptyOutDir: process.env.KEEP_OLD_ASSETS !== '1',
  },
  server: {
    proxy: { '/api': 'http://localhost:3000' },
  },
} satisfies UserConfig

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? serverBuild : clientBuild))
