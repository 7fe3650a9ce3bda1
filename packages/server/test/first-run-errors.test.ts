import { once } from 'node:events'
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readConfig } from '../src/config.js'
import { parseLogLevel } from '../src/log-level.js'
import { preflight } from '../src/preflight.js'
import {
  parseServerConfig,
  readServerConfigFile,
  SERVER_SETTINGS,
  settingOf,
  withConfigFile,
} from '../src/server-config-file.js'

/**
 * What a newcomer meets at the first `pinfold serve` (the checks `serve` runs before it loads the
 * server or creates anything) and the server config file. In process: these are functions of the
 * configuration, and the CLI prints their messages as they are.
 */
describe('first-run errors and the server config file', () => {
  let work: string
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pinfold-first-run-'))
  })
  afterAll(() => rm(work, { recursive: true, force: true }))

  it('port in use - refused before the data directory is created, with a hint to set PORT', async () => {
    const taken = createServer().listen(0, '127.0.0.1')
    await once(taken, 'listening')
    const { port } = taken.address() as { port: number }
    const dataDir = join(work, 'never-created')
    try {
      const config = readConfig({ PORT: String(port), PINFOLD_DATA_DIR: dataDir })
      await expect(preflight(config)).rejects.toThrow(
        `port ${port} on 127.0.0.1 is in use by another program (another pinfold?): set PORT to a free port`,
      )
      await expect(stat(dataDir)).rejects.toThrow(/ENOENT/)
    } finally {
      taken.close()
    }
  })

  it('unusable data directory - PINFOLD_DATA_DIR named with its reason, within a second', async () => {
    const file = join(work, 'a-file')
    await writeFile(file, 'not a directory')
    for (const dataDir of [file, join(file, 'below')]) {
      const started = performance.now()
      const failure = await preflight(readConfig({ PORT: '0', PINFOLD_DATA_DIR: dataDir })).catch((e: Error) => e)
      expect(performance.now() - started).toBeLessThan(1000)
      expect((failure as Error).message).toBe(
        `the data directory ${dataDir} is not writable (a file is in the way): set PINFOLD_DATA_DIR to a directory this server can write`,
      )
    }
  })

  it('config file - TOML keys become settings, the environment overrides them, lists join with commas', async () => {
    const path = join(work, 'pinfold.toml')
    await writeFile(
      path,
      `port = 8080\nhost = "0.0.0.0"\ndata_dir = "/var/lib/pinfold"\nlog_level = "warn"\n\n[s3]\nbucket = "files"\nforce_path_style = true\n\n[ipfs]\ngateways = ["https://a.example", "https://b.example"]\n`,
    )
    const file = await readServerConfigFile(path)
    expect(file.env).toEqual({
      PORT: '8080',
      HOST: '0.0.0.0',
      PINFOLD_DATA_DIR: '/var/lib/pinfold',
      PINFOLD_LOG_LEVEL: 'warn',
      PINFOLD_S3_BUCKET: 'files',
      PINFOLD_S3_FORCE_PATH_STYLE: 'true',
      PINFOLD_IPFS_GATEWAYS: 'https://a.example,https://b.example',
    })
    const env = withConfigFile(file, { PORT: '9090', HOST: '' })
    expect(env).toMatchObject({ PORT: '9090', HOST: '0.0.0.0' }) // an empty variable does not override
    const config = readConfig(env)
    expect(config).toMatchObject({ port: 9090, host: '0.0.0.0', dataDir: '/var/lib/pinfold' })
    expect(parseLogLevel(env.PINFOLD_LOG_LEVEL)).toBe('warn')
  })

  it('config file - a syntax error, an unknown key, a bad value and a bad log level are clear errors', async () => {
    expect(() => parseServerConfig('port = ', 'a.toml')).toThrow(/^the config file a\.toml is not valid TOML at line 1/)
    expect(() => parseServerConfig('data_dri = "/x"', 'a.toml')).toThrow(/^unknown key "data_dri" in a\.toml/)
    expect(() => parseServerConfig('[s3]\nbucket = { a = 1 }', 'a.toml')).toThrow(/unknown key "s3\.bucket\.a"/)
    expect(() => parseServerConfig('port = 2026-01-01', 'a.toml')).toThrow(
      /"port" in a\.toml must be a string, a number, a boolean or a list of strings/,
    )
    await expect(readServerConfigFile(join(work, 'missing.toml'))).rejects.toThrow(
      /cannot read the config file .*ENOENT/,
    )
    expect(() => parseLogLevel('loud')).toThrow('PINFOLD_LOG_LEVEL must be debug, info, warn, error (default info)')
  })

  it('config file - every setting of the README table is a key, and docs/configuration.md lists each key', async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8')
    const section = readme.slice(readme.indexOf('## Configuration (`pinfold serve`)'))
    const table = section.slice(0, section.indexOf('\n\n', section.indexOf('| variable')))
    const documented = new Set(
      [...table.matchAll(/`((?:PINFOLD_|PORT|HOST|DATABASE_URL)[A-Z0-9_]*)`/g)].map((m) => m[1]!),
    )
    expect([...documented].filter((name) => !(SERVER_SETTINGS as readonly string[]).includes(name))).toEqual([])
    const docs = await readFile(new URL('../../../docs/configuration.md', import.meta.url), 'utf8')
    for (const name of SERVER_SETTINGS) {
      const key = name.replace(/^PINFOLD_/, '').toLowerCase()
      expect(settingOf([key])).toBe(name)
      expect(docs, name).toMatch(new RegExp(`\\| \`${key}\` +\\| \`${name}\` +\\|`))
    }
  })
})
