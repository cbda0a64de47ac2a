import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'sw/**/*.test.ts', 'tests/lint/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          environment: 'node',
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
