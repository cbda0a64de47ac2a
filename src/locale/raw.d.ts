// A file imported as text (Vite's ?raw, which Vitest understands): the catalog test reads the .po files
// this way, so the locale layer needs no Node API even in its tests.
declare module '*?raw' {
  const text: string
  export default text
}
