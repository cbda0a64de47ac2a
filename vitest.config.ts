import { defineConfig } from 'vitest/config'
import { keepTemporaryFilesInMemory } from './tests/setup/test-tmpdir.ts'

keepTemporaryFilesInMemory()

// The suites on a 2-core machine (docs/development.md, "Where the suite's time goes"): two test files
// at a time, and one process per worker for many files rather than a process per file. Every file
// starts servers of its own on databases of its own and names its data by its own ids, so files do
// not see each other; a new process per file cost about a second of loading the server's modules
// each time. The several-instances suite keeps a process per file and runs alone, after the others.
const SIDE_BY_SIDE = 2
/** Unit files that set something once per process (TensorFlow.js's backend): a process of their own. */
const OWN_PROCESS = ['src/server/moderation/image-cpu.test.ts']

export default defineConfig({
  test: {
    maxWorkers: SIDE_BY_SIDE,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'sw/**/*.test.ts', 'tests/lint/**/*.test.ts'],
          exclude: [...OWN_PROCESS, '**/node_modules/**'],
          environment: 'node',
          isolate: false,
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'unit-own-process',
          include: OWN_PROCESS,
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
          isolate: false,
          sequence: { groupOrder: 0 },
          testTimeout: 60_000,
          hookTimeout: 120_000,
        },
      },
      {
        // Several server processes on one PostgreSQL and one bucket, one of them killed: run after
        // the others, so that their five processes do not share the two cores with another suite.
        test: {
          name: 'scale',
          include: ['tests/scale/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 1 },
          testTimeout: 240_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
})
