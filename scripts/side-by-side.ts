// Runs npm scripts at the same time and fails if any fails (`npm test` type-checks while it builds:
// tsc keeps one core busy, the build mostly the other). Each script's output is printed whole when it
// ends, so two logs never interleave line by line.
//
//   node --import tsx scripts/side-by-side.ts typecheck build
import { spawn } from 'node:child_process'

const scripts = process.argv.slice(2)
if (scripts.length === 0) {
  console.error('usage: side-by-side.ts <npm script> [<npm script>...]')
  process.exit(2)
}

const runs = scripts.map(
  (name) =>
    new Promise<{ name: string; code: number; seconds: number }>((resolve) => {
      const started = Date.now()
      const child = spawn('npm', ['run', '--silent', name], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' },
      })
      const output: Buffer[] = []
      child.stdout.on('data', (chunk: Buffer) => output.push(chunk))
      child.stderr.on('data', (chunk: Buffer) => output.push(chunk))
      child.on('close', (code) => {
        const seconds = (Date.now() - started) / 1000
        process.stdout.write(`\n> npm run ${name} (${seconds.toFixed(0)} s, exit ${code})\n`)
        process.stdout.write(Buffer.concat(output))
        resolve({ name, code: code ?? 1, seconds })
      })
    }),
)

const results = await Promise.all(runs)
const failed = results.filter((result) => result.code !== 0)
if (failed.length > 0) {
  console.error(`\nfailed: ${failed.map((result) => result.name).join(', ')}`)
  process.exit(1)
}
