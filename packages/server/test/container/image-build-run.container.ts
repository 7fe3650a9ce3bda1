import { randomBytes, randomUUID } from 'node:crypto'
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ensureBaseImage } from './base-image.js'
import { type Engine, engineOptions, engineRun, findEngine, repoRoot, run as runCommand } from './engine.js'

/**
 * The repository's Dockerfile built and its image run, where a container engine answers: the
 * official images' conventions checked on a running container (the `node` user, the data on a
 * volume that outlives the container, the HEALTHCHECK, SIGTERM ending it cleanly), and the API
 * and the gateway used through the published port with a token minted inside the container.
 * Without an engine it is skipped and says why (container-files.test.ts checks the files
 * statically everywhere). Minutes long: it runs alone, `npx vitest run --config
 * vitest.container.config.ts`, never in the default group.
 */
const found = await findEngine()
if ('reason' in found) console.warn(`container image test skipped: ${found.reason}`)

const run = randomUUID().slice(0, 8)
const image = `localhost/pinfold-image-test:${run}`
const volume = `pinfold-image-test-${run}`
const names = [`pinfold-image-test-${run}-1`, `pinfold-image-test-${run}-2`]
/** pinfold's 30 s for requests in flight, and some (compose.yaml's stop_grace_period) */
const STOP_TIMEOUT_S = 45
const timings: Record<string, string> = {}
/** files lent to the build */
const scratch = join(tmpdir(), `pinfold-image-test-${run}`)

describe.skipIf('reason' in found)('the container image, built and run', { timeout: 10 * 60_000 }, () => {
  let engine: Engine
  let cid: string
  let token: string
  const content = randomBytes(256 * 1024)

  beforeAll(async () => {
    engine = (found as { engine: Engine }).engine
    let started = Date.now()
    const base = await ensureBaseImage(engine)
    timings['base image'] = `${seconds(started)} (${base})`
    engine = await engineOptions(engine)
    started = Date.now()
    const build = await engineRun(
      engine,
      ['build', ...(await buildOptions(engine)), ...engine.limits, ...(await hostTrust(engine)), '-t', image, repoRoot],
      50 * 60_000,
    )
    timings.build = seconds(started)
    expect(build, build.stdout.slice(-4000) + build.stderr.slice(-4000)).toMatchObject({ code: 0 })
    expect((await engineRun(engine, ['volume', 'create', volume])).code).toBe(0)
  }, 60 * 60_000)

  afterAll(async () => {
    await engineRun(engine, ['rm', '--force', '--time', '0', ...names])
    await engineRun(engine, ['volume', 'rm', '--force', volume])
    await engineRun(engine, ['image', 'rm', '--force', image])
    await rm(scratch, { recursive: true, force: true })
    console.log(`container image test (${engine?.command} ${engine?.global.join(' ')}): ${JSON.stringify(timings)}`)
  }, 120_000)

  it('the image - HEALTHCHECK kept, pinfold serve as its entrypoint', async () => {
    // both engines answer an array of images; podman ignores `--format '{{json .}}'` for a whole image
    const inspect = await engineRun(engine, ['image', 'inspect', image])
    const found = (
      JSON.parse(inspect.stdout) as {
        Config: { User: string; Healthcheck?: { Test: string[] }; Entrypoint: string[]; Cmd: string[] }
        /** podman (4.3) keeps a docker-format image's health check beside the OCI config, which has no field for it */
        Healthcheck?: { Test: string[] }
      }[]
    )[0]!
    expect(found.Config).toMatchObject({
      User: 'node',
      Entrypoint: ['node', '/opt/pinfold/dist/cli.js'],
      Cmd: ['serve'],
    })
    expect((found.Config.Healthcheck ?? found.Healthcheck)?.Test.join(' ')).toMatch(/\/healthz/)
  })

  it('a container - healthy as uid 1000 with its data directory 0700 on the volume; uploads and the gateway work', async () => {
    const started = Date.now()
    const port = await start(names[0]!)
    timings['first start to /healthz'] = seconds(started)
    await healthy(names[0]!)
    timings['first start to healthy'] = seconds(started)

    const status = await exec(names[0]!, 'cat', '/proc/1/status')
    expect(status).toMatch(/^Uid:\s+1000\s+1000\s+1000\s+1000$/m)
    expect(status).toMatch(/^Gid:\s+1000\s+1000\s+1000\s+1000$/m)
    expect((await exec(names[0]!, 'cat', '/proc/1/cmdline')).split('\0')).toEqual([
      'node',
      '/opt/pinfold/dist/cli.js',
      'serve',
      '',
    ])
    expect(await exec(names[0]!, 'stat', '-c', '%a %U:%G', '/var/lib/pinfold')).toBe('700 node:node\n')

    // minted by the CLI inside the container, with the secret its server keeps on the volume
    token = (await exec(names[0]!, 'pinfold', 'token', '--sub', 'container', '--org', 'container')).trim()
    const form = new FormData()
    form.append('file', new Blob([content]), 'random.bin')
    form.append('network', 'public')
    const upload = await fetch(`http://127.0.0.1:${port}/v3/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    const uploaded = (await upload.json()) as { data: { cid: string; size: number } }
    expect({ status: upload.status, size: uploaded.data?.size }).toEqual({ status: 200, size: content.length })
    cid = uploaded.data.cid
    await expectGateway(port)
  })

  it('SIGTERM - `stop` ends it within the stop timeout, exit 0', async () => {
    await stopCleanly(names[0]!)
  })

  it('a new container on the same volume - the file, its record and the signing secret are still there', async () => {
    const started = Date.now()
    const port = await start(names[1]!)
    timings['second start to /healthz'] = seconds(started)
    await expectGateway(port)
    const listed = await fetch(`http://127.0.0.1:${port}/v3/files/public?cid=${cid}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    const { data } = (await listed.json()) as { data: { files: { cid: string }[] } }
    expect({ status: listed.status, cids: data.files.map((file) => file.cid) }).toEqual({ status: 200, cids: [cid] })
    await stopCleanly(names[1]!)
  })

  /** Runs the image detached on the volume, its port published on a free one of 127.0.0.1. */
  async function start(name: string): Promise<number> {
    const started = await engineRun(engine, [
      'run',
      '--detach',
      '--name',
      name,
      ...engine.limits,
      '--publish',
      '127.0.0.1::3000',
      '--volume',
      `${volume}:/var/lib/pinfold`,
      image,
    ])
    expect(started, started.stderr).toMatchObject({ code: 0 })
    const published = await engineRun(engine, ['port', name, '3000/tcp'])
    const port = Number(/:(\d+)\s*$/.exec(published.stdout.trim().split('\n')[0]!)?.[1])
    expect(port, published.stdout + published.stderr).toBeGreaterThan(0)
    // the first start makes the embedded database: tens of seconds on a busy 2-core machine
    const deadline = Date.now() + 5 * 60_000
    for (;;) {
      const answer = await fetch(`http://127.0.0.1:${port}/healthz`).catch(() => undefined)
      if (answer?.ok) return port
      // a server that exited (a start-up error) is reported at once, with its last lines
      const running = await engineRun(engine, ['container', 'inspect', '--format', '{{.State.Running}}', name])
      if (running.stdout.trim() !== 'true' || Date.now() > deadline) {
        const logs = await engineRun(engine, ['logs', '--tail', '40', name])
        throw new Error(`${name}: no /healthz (running: ${running.stdout.trim()})\n${logs.stdout}${logs.stderr}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 1000))
    }
  }

  /**
   * The image's HEALTHCHECK reports healthy. Docker runs it on its own schedule; podman schedules it
   * with systemd timers, which a machine without systemd lacks, so it is run once by hand there.
   */
  async function healthy(name: string) {
    if (engine.command === 'podman') {
      const check = await engineRun(engine, ['healthcheck', 'run', name])
      expect(check, check.stderr).toMatchObject({ code: 0 })
    }
    const deadline = Date.now() + 3 * 60_000
    let state = ''
    while (Date.now() < deadline) {
      const inspect = await engineRun(engine, ['container', 'inspect', '--format', '{{json .State}}', name])
      const parsed = JSON.parse(inspect.stdout) as { Health?: { Status: string }; Healthcheck?: { Status: string } }
      state = (parsed.Health ?? parsed.Healthcheck)?.Status ?? 'no health state'
      if (state === 'healthy') return
      await new Promise((resolve) => setTimeout(resolve, 2000))
    }
    expect(state).toBe('healthy')
  }

  async function expectGateway(port: number) {
    const read = await fetch(`http://127.0.0.1:${port}/ipfs/${cid}`)
    expect(read.status).toBe(200)
    expect(Buffer.from(await read.arrayBuffer()).equals(content)).toBe(true)
  }

  async function stopCleanly(name: string) {
    const started = Date.now()
    const stop = await engineRun(engine, ['stop', '--time', String(STOP_TIMEOUT_S), name], 120_000)
    const elapsed = Date.now() - started
    timings[`stop ${name.slice(-1)}`] = seconds(started)
    expect(stop, stop.stderr).toMatchObject({ code: 0 })
    expect(elapsed).toBeLessThan(STOP_TIMEOUT_S * 1000)
    const state = await engineRun(engine, ['container', 'inspect', '--format', '{{.State.ExitCode}}', name])
    const logs = await engineRun(engine, ['logs', '--tail', '20', name])
    expect(state.stdout.trim(), logs.stdout + logs.stderr).toBe('0')
  }

  async function exec(name: string, ...command: string[]) {
    const result = await engineRun(engine, ['exec', name, ...command])
    expect(result, result.stderr).toMatchObject({ code: 0 })
    return result.stdout
  }
})

/**
 * podman writes OCI images unless told otherwise, and the OCI format has no HEALTHCHECK. The build
 * stage's pnpm store is a directory of the machine's cache (scripts/container/local-base-image.sh's),
 * mounted for the RUN steps only: a second build downloads nothing. Docker's builder takes no mounts.
 */
async function buildOptions(engine: Engine) {
  if (engine.command !== 'podman') return []
  return ['--format', 'docker', '--layers=false', '--volume', `${await pnpmStore()}:/root/.local/share/pnpm/store`]
}

/**
 * The pnpm store the build's install reads: this machine's own (the one that installed the
 * workspace, so a cold build downloads nothing: ~1.8 GB and most of its time otherwise), else a
 * cache of the test's. The image's pnpm is the same version, so its store layout (`v11`) is the same.
 */
async function pnpmStore(): Promise<string> {
  const { PINFOLD_IMAGE_CACHE, XDG_CACHE_HOME } = process.env
  const own = await runCommand('npx', ['-y', 'pnpm@12.21.0', 'store', 'path'], 120_000)
  const path = own.stdout.trim().split('\n').at(-1) ?? ''
  if (own.code === 0 && /\/v\d+$/.test(path)) return dirname(path)
  const cache =
    PINFOLD_IMAGE_CACHE ?? (XDG_CACHE_HOME ? join(XDG_CACHE_HOME, 'pinfold') : '/var/tmp/pinfold-image-cache')
  const store = join(cache, 'pnpm-store')
  await mkdir(store, { recursive: true })
  return store
}

/**
 * The CA certificates this machine's Node trusts beyond its own (NODE_EXTRA_CA_CERTS: here a
 * TLS-inspecting egress proxy's, without which npm in the build fails with SELF_SIGNED_CERT_IN_CHAIN),
 * lent to the build stage's npm and pnpm by a `cafile` in root's .npmrc; both are mounted for the
 * build's RUN steps only and end up in no layer. Docker's builder takes no such mounts.
 */
async function hostTrust(engine: Engine): Promise<string[]> {
  const bundle = process.env.NODE_EXTRA_CA_CERTS
  if (!bundle || engine.command !== 'podman') return []
  await mkdir(scratch, { recursive: true })
  await writeFile(join(scratch, 'npmrc'), 'cafile=/etc/ssl/certs/build-host-ca.crt\n')
  return [
    '--volume',
    `${bundle}:/etc/ssl/certs/build-host-ca.crt:ro`,
    '--volume',
    `${join(scratch, 'npmrc')}:/root/.npmrc:ro`,
  ]
}

const seconds = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`
