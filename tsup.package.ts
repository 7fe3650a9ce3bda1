import { defineConfig, type Options } from 'tsup'

/**
 * The build every package shares: ESM with declarations, built against the package's
 * tsconfig.build.json (without project references, or tsup's declaration pass fails), for the
 * oldest Node the package supports. A package's tsup.config.ts passes only what differs.
 */
export function packageBuild(options: Options = {}) {
  return defineConfig({
    entry: ['src/index.ts'],
    format: ['esm'],
    dts: { compilerOptions: { composite: false, customConditions: [] } },
    tsconfig: 'tsconfig.build.json',
    clean: true,
    sourcemap: true,
    target: 'node20',
    ...options,
  })
}
