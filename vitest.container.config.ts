import { defineConfig } from 'vitest/config'

/**
 * The container image test alone (packages/server/test/container/*.container.ts): it builds the
 * Dockerfile and runs the image, minutes of work, so no project of vitest.config.ts includes it.
 * `npx vitest run --config vitest.container.config.ts`; skipped, with the reason printed, where no
 * container engine answers.
 */
export default defineConfig({
  resolve: { conditions: ['source'] },
  ssr: { resolve: { conditions: ['source'] } },
  test: {
    include: ['packages/*/test/**/*.container.ts'],
    testTimeout: 10 * 60_000,
    hookTimeout: 60 * 60_000,
    pool: 'forks',
  },
})
