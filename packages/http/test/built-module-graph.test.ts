import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'

const packageDir = fileURLToPath(new URL('..', import.meta.url))
const prlimit = spawnSync('prlimit', ['--nofile=64:64', '--', 'true']).status === 0

// Node's ESM loader opens every module of an import graph at once. typebox ships as 709 small
// files, so a server importing this package as it was built before (typebox external) died at
// start-up under `ulimit -n 256` with EMFILE (or ERR_MODULE_NOT_FOUND: the loader reports a file it
// could not open as missing). The build bundles typebox; the rest of the graph is a few dozen files.
describe.skipIf(!prlimit)('@pinfold/http as built', { timeout: 120_000 }, () => {
  // inside the package, so the bundle's external imports resolve from its node_modules
  let outDir: string | undefined
  afterAll(async () => {
    if (outDir) await rm(outDir, { recursive: true, force: true })
  })

  it('loads in a process allowed 160 open files', async () => {
    outDir = await mkdtemp(join(packageDir, '.built-module-graph-'))
    // the package's own build (tsup.config.ts, and the externals tsup takes from package.json, both
    // read from the working directory), without declarations
    const built = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { build } = await import('tsup'); await build(${JSON.stringify({ outDir, dts: false, sourcemap: false, clean: false, silent: true })})`,
      ],
      { cwd: packageDir, encoding: 'utf8' },
    )
    expect(built.status, built.stderr).toBe(0)
    const entry = pathToFileURL(join(outDir, 'index.js')).href
    const load = spawnSync(
      'prlimit',
      [
        '--nofile=160:160',
        '--',
        process.execPath,
        '--input-type=module',
        '-e',
        `await import(${JSON.stringify(entry)}); console.log('loaded')`,
      ],
      { encoding: 'utf8' },
    )
    expect(load.stderr).toBe('')
    expect(load.stdout.trim()).toBe('loaded')
  })
})
