import { defineConfig } from 'vitest/config';

/**
 * Test tiers by folder: `default` (unit, package, service and CLI, what `npm test` runs; needs
 * nothing outside the clone), `unit` (test/unit alone, with no build: `npm run test:unit`),
 * `stress` (the SIGKILL test repeated 20 times, the parser fuzz at scale, and ingest under
 * concurrent load with reads, three larger rounds per store), `e2e` (the
 * dashboard in a headless Chromium) and `data` (the real data sets in ../shared/data, run by
 * .ci/run with STANDING_DATA set) and `cluster` (gateways and workers over real nats-server
 * processes and PostgreSQL).
 */
export default defineConfig({
  test: {
    // The tests of each file run in a shuffled order, the same at every run (a fixed seed;
    // --sequence.seed=N tries another), so that none can rely on another having run before it.
    sequence: { shuffle: { files: false, tests: true }, seed: 1 },
    projects: [
      {
        test: {
          name: 'default',
          include: ['test/unit/**/*.test.ts', 'test/package/**/*.test.ts', 'test/service/**/*.test.ts', 'test/cli/**/*.test.ts'],
          globalSetup: ['test/support/build.ts'],
          testTimeout: 60_000,
        },
      },
      { test: { name: 'unit', include: ['test/unit/**/*.test.ts'], testTimeout: 60_000 } },
      {
        test: {
          name: 'stress',
          include: ['test/service/kill-restart.test.ts', 'test/service/fuzz.test.ts', 'test/service/ingest-under-load.test.ts'],
          env: { STANDING_STRESS: '1' },
          globalSetup: ['test/support/build.ts'],
          testTimeout: 600_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/build-all.ts'],
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      { test: { name: 'data', include: ['test/data/**/*.test.ts'], globalSetup: ['test/support/build.ts'], testTimeout: 600_000 } },
      {
        test: {
          name: 'cluster',
          include: ['test/cluster/**/*.test.ts'],
          // `npm run test:cluster` runs one file at a time (--no-file-parallelism): each starts
          // three nats-server processes, and one file's failures (a SIGKILLed server, lapsing
          // leases) must not starve another's timers on two cores.
          // Some tests run workers as `standing worker` processes from dist/.
          globalSetup: ['test/support/build.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
