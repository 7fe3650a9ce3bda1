import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MIGRATIONS } from '@pinfold/adapter-postgres'
import { describe, expect, it } from 'vitest'
import { readConfig } from '../src/config.js'
import { runMigrations } from '../src/migrate-command.js'

// a fresh embedded database starts PGlite's WebAssembly: tens of seconds on a loaded 2-core CI machine
describe('pinfold migrate', { timeout: 120_000 }, () => {
  it('migrate - applies every migration to the embedded database in order, reporting each, then nothing', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-migrate-'))
    try {
      const config = readConfig({ PINFOLD_DATA_DIR: dataDir })
      const events: string[] = []
      const versions = MIGRATIONS.map((m) => m.version).sort((a, b) => a - b)
      const applied = await runMigrations(config, (e) => events.push(`${e.version}:${e.state}`))
      expect(applied).toEqual(versions)
      expect(events).toEqual(versions.flatMap((v) => [`${v}:applying`, `${v}:applied`]))
      const again: string[] = []
      expect(await runMigrations(config, (e) => again.push(`${e.version}:${e.state}`))).toEqual([])
      expect(again).toEqual(versions.flatMap((v) => [`${v}:applying`, `${v}:skipped`]))
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  })
})
