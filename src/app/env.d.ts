/** The app version baked in by vite.config.ts (APP_VERSION or package.json version). */
declare const __APP_VERSION__: string
