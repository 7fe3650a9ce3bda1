#!/usr/bin/env node
// What a user outside this repository gets: every package under packages/ packed as it would be
// published (`pnpm pack` rewrites `workspace:*` to versions), installed with plain npm into a fresh
// project in a temporary directory (third-party dependencies from the npm registry), then
//   1. `npx pinfold serve` on the embedded default starts and answers: /readyz, an upload with the
//      development token it saves, the same bytes back through the gateway;
//   2. the README's embedding snippet (between its `embedding-snippet` markers, as written)
//      type-checks against the packages' published types and runs, followed by a check that uses
//      what it built.
// Run after `pnpm build` (the tarballs hold dist/): `node scripts/pack-install.mjs`. CI runs it.
import { spawn, spawnSync } from 'node:child_process'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const PNPM = ['-y', 'pnpm@12.21.0']
const HELLO_CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e' // "hello world", raw leaf

const work = await mkdtemp(join(tmpdir(), 'pinfold-pack-'))
const keep = process.env.PINFOLD_PACK_KEEP === '1'
try {
  await main()
  console.log('pack-install: the packed packages install, serve and embed')
} finally {
  if (!keep) await rm(work, { recursive: true, force: true })
  else console.log(`pack-install: kept ${work}`)
}

async function main() {
  // @pinfold/testing (the suites' shared harnesses) is private: never packed, never published
  const packages = []
  for (const name of (await readdir(join(root, 'packages'))).sort()) {
    const manifest = JSON.parse(await readFile(join(root, 'packages', name, 'package.json'), 'utf8'))
    if (!manifest.private) packages.push(name)
  }
  for (const name of packages) {
    const dist = await readdir(join(root, 'packages', name, 'dist')).catch(() => [])
    if (dist.length === 0) throw new Error(`packages/${name}/dist is missing: run \`pnpm build\` first`)
  }

  const tarballs = join(work, 'tarballs')
  step(`packing ${packages.length} packages`)
  const filters = packages.flatMap((name) => ['--filter', `./packages/${name}`])
  run('npx', [...PNPM, '-r', ...filters, 'pack', '--pack-destination', tarballs], { cwd: root })
  const files = (await readdir(tarballs)).filter((file) => file.endsWith('.tgz'))
  if (files.length !== packages.length) throw new Error(`expected ${packages.length} tarballs, got ${files.join(' ')}`)

  const app = join(work, 'app')
  await mkdir(app)
  const own = {}
  for (const file of files) {
    const manifest = JSON.parse(run('tar', ['-xOzf', join(tarballs, file), 'package/package.json'], { quiet: true }))
    const deps = Object.values({ ...manifest.dependencies, ...manifest.peerDependencies })
    if (deps.some((range) => String(range).startsWith('workspace:'))) {
      throw new Error(`${file} still names a workspace: range: ${JSON.stringify(manifest.dependencies)}`)
    }
    own[manifest.name] = `file:${join(tarballs, file)}`
  }
  const devTools = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')).devDependencies
  await writeFile(
    join(app, 'package.json'),
    JSON.stringify(
      {
        name: 'pinfold-pack-install-check',
        private: true,
        type: 'module',
        dependencies: own,
        devDependencies: { tsx: devTools.tsx, typescript: devTools.typescript, '@types/node': devTools['@types/node'] },
        // the packages name each other by version; these are not on the registry, the tarballs are
        overrides: Object.fromEntries(Object.keys(own).map((name) => [name, `$${name}`])),
      },
      null,
      2,
    ),
  )
  step('npm install of the tarballs in a fresh project')
  run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: app })

  await serveFromTarballs(app)
  await runEmbeddingSnippet(app)
}

/** `npx pinfold serve` with a fresh data directory: it must answer and keep what it is given. */
async function serveFromTarballs(app) {
  step('npx pinfold serve (embedded default)')
  const dataDir = join(work, 'data')
  const server = spawn('npx', ['--no-install', 'pinfold', 'serve'], {
    cwd: app,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', PINFOLD_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'inherit'],
    // its own process group, so the whole npx → node tree is stopped at the end
    detached: true,
  })
  try {
    const url = await listeningUrl(server, 120_000)
    const ready = await fetch(`${url}/readyz`)
    if (ready.status !== 200) throw new Error(`/readyz answered ${ready.status}: ${await ready.text()}`)
    const token = await devToken(dataDir)
    const form = new FormData()
    form.append('file', new File(['hello world'], 'hello.txt'))
    form.append('network', 'public')
    const upload = await fetch(`${url}/v3/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    const { data } = await upload.json()
    if (upload.status !== 200 || data?.cid !== HELLO_CID) throw new Error(`upload answered ${upload.status}`)
    const back = await fetch(`${url}/ipfs/${data.cid}`)
    if ((await back.text()) !== 'hello world') throw new Error(`the gateway answered ${back.status}`)
    console.log(`  ok: ${url} answered /readyz, stored ${data.cid} and served it back`)
  } finally {
    try {
      process.kill(-server.pid, 'SIGTERM')
    } catch {}
    await new Promise((resolve) => (server.exitCode !== null ? resolve() : server.once('exit', resolve)))
  }
}

/** The README's embedding snippet as written, then a check that uses its `service` and `handler`. */
async function runEmbeddingSnippet(app) {
  step("the README's embedding snippet")
  const readme = await readFile(join(root, 'README.md'), 'utf8')
  const marked = /<!-- embedding-snippet:start[^>]*-->\s*```ts\n([\s\S]*?)```\s*<!-- embedding-snippet:end -->/.exec(
    readme,
  )
  if (!marked) throw new Error('README.md has no ```ts block between the embedding-snippet markers')
  const check = `
// --- appended by scripts/pack-install.mjs: use what the snippet built
import { mintToken } from '@pinfold/core'

const token = await mintToken(process.env.PINFOLD_AUTH_SECRET!, { sub: 'embedder', scopes: ['org:files:write'], expiresIn: '5m' })
const form = new FormData()
form.append('file', new File(['hello world'], 'hello.txt'))
form.append('network', 'public')
const uploaded = await handler(
  new Request('http://embedded.test/v3/files', { method: 'POST', headers: { authorization: \`Bearer \${token}\` }, body: form }),
)
const { data } = (await uploaded.json()) as { data: { id: string; cid: string } }
if (data.cid !== '${HELLO_CID}') throw new Error(\`upload through the handler answered \${uploaded.status}\`)
const back = await handler(new Request(\`http://embedded.test/ipfs/\${data.cid}\`))
if ((await back.text()) !== 'hello world') throw new Error(\`the gateway answered \${back.status}\`)
const listed = await service.files.list({ tenantId: 'embedder', userId: 'embedder' }, 'public')
console.log(\`  ok: the snippet's handler stored \${data.cid}; its service lists \${listed.files.length} file(s)\`)
`
  await writeFile(join(app, 'embed.ts'), `${marked[1]}${check}`)
  await writeFile(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        lib: ['ES2022', 'DOM'],
      },
      files: ['embed.ts'],
    }),
  )
  run('npx', ['--no-install', 'tsc', '-p', '.'], { cwd: app })
  run('npx', ['--no-install', 'tsx', 'embed.ts'], {
    cwd: app,
    env: { ...process.env, PINFOLD_AUTH_SECRET: 'pack-install-secret-0123456789abcdef0123456789' },
  })
}

/** Resolves with the URL of the `pinfold listening` log line; fails if the process ends first. */
function listeningUrl(child, timeoutMs) {
  return new Promise((resolve, reject) => {
    let buffered = ''
    const timer = setTimeout(() => reject(new Error(`no "pinfold listening" within ${timeoutMs} ms`)), timeoutMs)
    child.once('exit', (code) => reject(new Error(`pinfold serve exited (${code}) before listening: ${buffered}`)))
    child.stdout.on('data', (chunk) => {
      buffered += chunk
      for (const line of buffered.split('\n')) {
        if (!line.includes('"pinfold listening"')) continue
        clearTimeout(timer)
        resolve(JSON.parse(line).url)
      }
    })
  })
}

/** The development token `pinfold serve` saves just after it logs that it listens. */
async function devToken(dataDir) {
  for (let attempt = 0; ; attempt++) {
    try {
      return (await readFile(join(dataDir, 'dev-token'), 'utf8')).trim()
    } catch (error) {
      if (attempt === 100) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

function run(command, args, { cwd = root, env = process.env, quiet = false } = {}) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed (${result.status}):\n${result.stdout}\n${result.stderr}`)
  }
  if (!quiet && result.stdout.trim()) console.log(indent(result.stdout))
  return result.stdout
}

function step(message) {
  console.log(`pack-install: ${message}`)
}

function indent(text) {
  return text
    .trim()
    .split('\n')
    .slice(-5)
    .map((line) => `  ${line}`)
    .join('\n')
}
