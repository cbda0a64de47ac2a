// Merged into bench-content.ts (one `npm run bench:content` for render, photo moderation
// and video figures); kept so `npm run bench:moderation` still prints them.
// Run: npm run bench:moderation [-- --runs 40 --video-runs 3]
await import('./bench-content.ts')
