// What the code without a runtime (src/domain, src/contract, src/locale) may use beyond ECMAScript:
// the few globals that every runtime of the shop has alike (browser, service worker, Node). Declared
// here with only the members in use, so that the rest of the DOM and of Node stays a type error in those
// folders (their tsconfig.json: lib ES2023, no types; docs/architecture.md).

interface Console {
  warn(...data: unknown[]): void
}
declare var console: Console

/** WHATWG URL standard; `pathOf` builds query strings with it (src/contract/endpoint.ts). */
declare class URLSearchParams {
  constructor(init?: string | Record<string, string>)
  append(name: string, value: string): void
  toString(): string
}
