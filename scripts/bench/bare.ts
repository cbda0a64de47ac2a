// A bare Hono app on @hono/node-server answering GET /api/v1/health as the shop does, in its own
// process: `npm run bench` measures the shop's request pipeline (logs, request ids, security headers,
// metrics...) against it.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'

const app = new Hono()
app.get('/api/v1/health', (c) => c.json({ status: 'ok' }))
const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => {
  process.stderr.write(`READY http://127.0.0.1:${info.port}\n`)
})
process.once('SIGTERM', () => server.close(() => process.exit(0)))
