import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { readConfig } from '../src/config.js'

/**
 * The Dockerfile and compose.yaml, checked statically (no container engine or registry here):
 * the conventions of the official images (an unprivileged user, the data on a volume, a health
 * check on /healthz, SIGTERM with time to finish), and settings `pinfold serve` accepts.
 */
const root = new URL('../../../', import.meta.url)
const text = (path: string) => readFile(new URL(path, root), 'utf8')

/** Instructions of the final stage, continuation lines joined: `[keyword, arguments]`. */
function finalStage(dockerfile: string): [string, string][] {
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
  const stages = lines
    .map((line) => /^(\S+)\s+(.*)$/.exec(line)!)
    .map((m) => [m[1]!.toUpperCase(), m[2]!] as [string, string])
  const from = stages.map(([keyword]) => keyword).lastIndexOf('FROM')
  return stages.slice(from)
}

describe('Dockerfile and compose.yaml', () => {
  it('Dockerfile - the final stage runs pinfold serve as the node user, data on a volume, a health check', async () => {
    const dockerfile = await text('Dockerfile')
    const stage = finalStage(dockerfile)
    const one = (keyword: string) => stage.filter(([k]) => k === keyword).map(([, args]) => args)
    expect(one('FROM')[0]).toMatch(/^node:22-bookworm-slim$/)
    expect(one('USER')).toEqual(['node'])
    // USER comes before the entrypoint runs, after the root-only setup
    expect(stage.findIndex(([k]) => k === 'USER')).toBeGreaterThan(stage.findIndex(([k]) => k === 'RUN'))
    const env = Object.fromEntries(
      [
        ...one('ENV')
          .join(' ')
          .matchAll(/(\w+)=(\S+)/g),
      ].map((m) => [m[1]!, m[2]!]),
    )
    expect(one('VOLUME')).toEqual([`["${env.PINFOLD_DATA_DIR}"]`])
    expect(readConfig(env)).toMatchObject({ host: '0.0.0.0', port: 3000, dataDir: '/var/lib/pinfold' })
    expect(one('EXPOSE')).toEqual([env.PORT])
    expect(one('HEALTHCHECK')[0]).toMatch(/CMD \["node", "-e", ".*\/healthz`\)/)
    expect(one('STOPSIGNAL')).toEqual(['SIGTERM'])
    expect(JSON.parse(one('ENTRYPOINT')[0]!)).toEqual(['node', '/opt/pinfold/dist/cli.js'])
    expect(JSON.parse(one('CMD')[0]!)).toEqual(['serve'])
    // the deployed package's bin is the file the entrypoint runs
    const { bin } = JSON.parse(await readFile(new URL('packages/server/package.json', root), 'utf8'))
    expect(`/opt/pinfold/${bin.pinfold.slice(2)}`).toBe('/opt/pinfold/dist/cli.js')
    expect(dockerfile).toMatch(/pnpm@12\.21\.0 install --frozen-lockfile/)
    expect(await text('.dockerignore')).toMatch(/\*\*\/node_modules/)
  })

  it('compose.yaml - PostgreSQL with pgvector, pinfold after it is healthy, S3 as a profile', async () => {
    const compose = parse(await text('compose.yaml'))
    const { postgres, pinfold, minio } = compose.services
    expect(postgres.image).toMatch(/^pgvector\/pgvector:pg1[5-9]$/)
    expect(postgres.healthcheck.test.join(' ')).toContain('pg_isready')
    expect(pinfold.depends_on.postgres.condition).toBe('service_healthy')
    expect(pinfold.init).toBe(true)
    expect(pinfold.volumes).toEqual(['data:/var/lib/pinfold'])
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['postgres', 'data']))
    expect(minio.profiles).toEqual(['s3'])
    expect(compose.services['minio-bucket'].profiles).toEqual(['s3'])
    // the environment with compose's defaults substituted, as `docker compose config` would
    const substituted = Object.fromEntries(
      Object.entries(pinfold.environment as Record<string, string>).map(([name, value]) => [
        name,
        value.replace(/\$\{[A-Z0-9_]+:-([^}]*)\}/g, (_, fallback: string) => fallback),
      ]),
    )
    expect(substituted.DATABASE_URL).toBe('postgres://pinfold:pinfold@postgres:5432/pinfold')
    const config = readConfig({ ...substituted, PINFOLD_DATA_DIR: '/var/lib/pinfold' })
    expect(config).toMatchObject({ databaseUrl: substituted.DATABASE_URL, s3: { bucket: undefined } })
    expect(readConfig({ ...substituted, PINFOLD_S3_BUCKET: 'pinfold' }).s3).toMatchObject({
      bucket: 'pinfold',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
    })
    // SIGTERM gets the server's 30 s for requests in flight, and some
    expect(Number.parseInt(pinfold.stop_grace_period, 10)).toBeGreaterThan(30)
  })
})
