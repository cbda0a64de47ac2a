// Every table the server knows: the core (core.ts) and photo/video content (content.ts).
export * from './content.ts'
export * from './core.ts'
