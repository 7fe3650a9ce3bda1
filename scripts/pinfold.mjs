#!/usr/bin/env node
/**
 * `pnpm start` / `pnpm pinfold <command>` in a checkout: runs the built `pinfold` CLI with plain
 * Node, in this process (no TypeScript loader, no extra process between pnpm and the server).
 * A fresh clone has no build yet, and a pulled or edited one may have an old build: when any source
 * of the server or of the workspace packages it imports is newer than its build, the packages are
 * built first (tsup without type declarations: ~10–20 s; `pnpm build` makes the full build).
 */
import { spawnSync } from 'node:child_process'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const server = join(root, 'packages', 'server')

const stale = workspaceClosure(server).filter(isStale)
if (stale.length > 0) {
  const names = stale.map((dir) => dir.slice(join(root, 'packages').length + 1)).join(', ')
  process.stderr.write(`pinfold: building ${names} (not built yet, or sources newer than the build) …\n`)
  build()
}
await import(join(server, 'dist', 'cli.js'))

/** The server's package directory and those of the workspace packages it depends on, recursively. */
function workspaceClosure(dir, seen = new Set()) {
  if (seen.has(dir)) return []
  seen.add(dir)
  const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'))
  const local = Object.entries(manifest.dependencies ?? {}).filter(([, range]) => range.startsWith('workspace:'))
  return [
    dir,
    ...local.flatMap(([name]) => workspaceClosure(join(root, 'packages', name.replace('@pinfold/', '')), seen)),
  ]
}

/** Whether a package's build is missing or older than anything it is built from. */
function isStale(dir) {
  const built = builtFiles(dir)
  const builtAt = Math.min(...built.map((file) => modifiedAt(join(dir, file)) ?? Number.NEGATIVE_INFINITY))
  const inputs = ['package.json', 'tsup.config.ts', 'tsconfig.build.json'].map((file) => join(dir, file))
  return [...inputs, ...files(join(dir, 'src'))].some((file) => (modifiedAt(file) ?? 0) > builtAt)
}

/** What a package's build leaves: the console's is a Vite site and the API viewer, the others' tsup's `dist/index.js`. */
function builtFiles(dir) {
  if (dir === server) return ['dist/index.js', 'dist/cli.js', 'dist/database-template/pglite-version']
  if (dir === join(root, 'packages', 'console')) return ['dist/index.html', 'api-reference/standalone.js']
  return ['dist/index.js']
}

function files(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath ?? entry.path, entry.name))
}

/** Modification time in ms, `undefined` when the file does not exist. */
function modifiedAt(file) {
  return statSync(file, { throwIfNoEntry: false })?.mtimeMs
}

function build() {
  // pnpm sets npm_execpath to itself when it runs a script; run by hand, fetch the pinned pnpm
  const pnpm = process.env.npm_execpath
  const [command, prefix] = pnpm?.match(/\.[cm]?js$/) ? [process.execPath, [pnpm]] : ['npx', ['-y', 'pnpm@12.21.0']]
  // tsup packages skip their type declarations (--no-dts); the console is a Vite build, which
  // knows no such flag
  const builds = [
    ['--filter', '@pinfold/server...', '--filter', '!@pinfold/console', 'run', 'build', '--no-dts'],
    ['--filter', '@pinfold/console', 'run', 'build'],
  ]
  for (const args of builds) {
    // the build's output goes to stderr: stdout is the server's log
    const result = spawnSync(command, [...prefix, ...args], { cwd: root, stdio: ['ignore', 2, 2] })
    if (result.status !== 0) {
      process.stderr.write('pinfold: the build failed; see above\n')
      process.exit(result.status ?? 1)
    }
  }
}
