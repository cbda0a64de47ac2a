import { lingui } from '@lingui/vite-plugin'
import babel from '@rolldown/plugin-babel'
import { tanstackRouter } from '@tanstack/router-plugin/vite'
import react from '@vitejs/plugin-react'
import { defineConfig, type Plugin } from 'vite'
import { VitePWA } from 'vite-plugin-pwa'

// The version shown in the app and baked into the service worker; a new value is a new deploy.
const appVersion = process.env.APP_VERSION ?? process.env.npm_package_version ?? '0.0.0'

/**
 * Lighthouse (issue 6): the app's one stylesheet (about 5 KB compressed) is inlined into index.html, so
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

// Plugin order matters (see ../shared/toolchain.md): router code-splitting first, then React,
// then the Lingui macro through Babel, then the .po loader, then the PWA.
export default defineConfig({
  define: { __APP_VERSION__: JSON.stringify(appVersion) },
  plugins: [
    tanstackRouter({
      target: 'react',
      autoCodeSplitting: true,
      routesDirectory: './src/app/routes',
      generatedRouteTree: './src/app/route-tree.gen.ts',
    }),
    react(),
    babel({ plugins: ['@lingui/babel-plugin-lingui-macro'] }),
    lingui(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'sw',
      filename: 'sw.ts',
      // registered by src/app/lib/pwa.ts with workbox-window (production builds only)
      injectRegister: false,
      injectManifest: {
        // every route's code chunk, the maplibre worker (.mjs), CSS and the shell (toolchain.md:
        // adding png/webmanifest here would duplicate the entries the plugin adds itself)
        globPatterns: ['**/*.{js,mjs,css,html}'],
        maximumFileSizeToCacheInBytes: 3 * 1024 * 1024,
      },
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon.png'],
      // One manifest for the three locale prefixes (issue 4): scope '/' covers /, /fr and /de;
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
      resolveDependencies: (_file, deps, { hostId, hostType }) =>
        hostType === 'js' && /(^|\/)assets\/index-[\w-]+\.js$/.test(hostId) ? [] : deps,
    },
    rolldownOptions: {
      output: {
        codeSplitting: {
          // What the entry (src/app/main.tsx) shares with the app goes in a chunk of its own: were the
          // app to import the entry chunk, every lazy import would list the entry's stylesheet as a
          // dependency and fetch again the CSS that index.html already has inlined.
          groups: [
            { name: 'boot', test: /vite\/preload-helper|src\/domain\/storage\.ts/ },
            // The stores are all read at start (resume at the last step, spec §9): one chunk rather
            // than eight of about a kilobyte, each paying its own request and compression overhead.
            // Only the stores themselves: what they import is split by who uses it, so code that only
            // later screens need (the Temporal polyfill among it) stays out of the first screen.
            // The domain rules every screen uses (schemas, messages, prices, order rules), with valibot:
            // one chunk, so the first screen is a few requests rather than one per module. The modules
            // that compute times (dates, event, slots: the Temporal polyfill) load with later screens.
            {
              name: 'domain',
              test: /src\/domain\/(api|date-hour|validation|messages|order-rules|price|money|device|content)\.ts|node_modules\/valibot\//,
              includeDependenciesRecursively: false,
            },
            {
              name: 'stores',
              test: /src\/app\/stores\//,
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
})
