import { availableParallelism } from 'node:os'
import { configDefaults, defineConfig } from 'vitest/config'

/**
 * Three groups (vitest projects). `pnpm test` runs `default`; `.ci/run` runs all three, and the
 * storage and Node version stages pick their files from all of them. A file is in one group only.
 */

const ALL = ['packages/*/test/**/*.test.ts', 'examples/*/test/**/*.test.ts']

/**
 * Tests whose point is a real process: `pinfold` (or another program: nginx, tsup, systemd-analyze)
 * started as a child, for what only a process has (exit codes, signals, a crash, memory, file modes,
 * start-up, the README's commands run as written). Each process start costs seconds (tsx and the
 * module graph, PGlite's first start), so they stay out of the default run.
 */
const PROCESSES = [
  'packages/http/test/built-module-graph.test.ts',
  'packages/server/test/backup-command.test.ts',
  'packages/server/test/car-upload-limits.test.ts',
  'packages/server/test/cli/client-commands.test.ts',
  'packages/server/test/crash-consistency.test.ts',
  'packages/server/test/data-dir-privacy.test.ts',
  'packages/server/test/deploy-files.test.ts',
  'packages/server/test/nginx-proxy.test.ts',
  'packages/server/test/persistence-processes.test.ts',
  'packages/server/test/pin-by-cid-crash.test.ts',
  'packages/server/test/read-only-data-dir.test.ts',
  'packages/server/test/readme-examples.test.ts',
  'packages/server/test/reliability/load.test.ts',
  'packages/server/test/resumable-completion-crash.test.ts',
  'packages/server/test/start-command.test.ts',
  'packages/server/test/token-command.test.ts',
  'packages/server/test/workers.test.ts',
]

/**
 * Interoperability: real third-party clients against a real server (the `pinata` SDK, the x402
 * clients, Helia, verified-fetch, ipfs-car), libp2p peers under Node 22, and the console and
 * `/docs` in headless chromium.
 */
const INTEROP = [
  'packages/ipfs-network/test/peers.test.ts',
  'packages/server/test/console/*-e2e.test.ts', // the console's and /docs' pages
  'packages/server/test/interop/**/*.test.ts',
  'packages/server/test/sdk/**/*.test.ts',
  'packages/server/test/x402-clients.test.ts',
]

export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // vitest's default, one worker fewer than the cores, is a single worker on 2 cores; most files
    // wait on sockets, child processes and PGlite rather than compute, and two workers there took
    // the default group from ~9 to ~7 minutes here (three made a /healthz latency test fail)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      // isolate: false — a worker keeps its module cache from one file to the next. With isolation
      // every file imported the module graph again: 318 s of the default group's 876 s of worker time
      // (7m29s → 3m43s on 2 cores). The rule it asks: a file sets up and tears down what it uses in its
      // own hooks, and never relies on module state another file left behind.
      // configDefaults.exclude (node_modules): an explicit exclude replaces vitest's default one, and
      // packages/http/test (a workspace project) has a node_modules whose links lead to every package
      {
        extends: true,
        test: {
          name: 'default',
          isolate: false,
          include: ALL,
          exclude: [...configDefaults.exclude, ...PROCESSES, ...INTEROP],
        },
      },
      { extends: true, test: { name: 'processes', include: PROCESSES } },
      { extends: true, test: { name: 'interop', include: INTEROP } },
    ],
  },
})
