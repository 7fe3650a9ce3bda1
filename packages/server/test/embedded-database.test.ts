import { cp, lstat, mkdtemp, readdir, readFile, rm, rmdir, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fromPGlite, MIGRATIONS, migrate } from '@pinfold/adapter-postgres'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createDatabaseTemplate, openEmbeddedDatabase } from '../src/embedded-database.js'

/** Files under `dir` whose mode is not owner-only. */
async function widerThanOwner(dir: string): Promise<string[]> {
  const wide: string[] = []
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    const info = await lstat(join(entry.parentPath, entry.name))
    if ((info.mode & 0o077) !== 0) wide.push(join(entry.parentPath, entry.name))
  }
  return wide
}

// Each initdb takes seconds in WebAssembly on a busy machine.
describe('the embedded database', { timeout: 120_000 }, () => {
  let work: string
  let template: string
  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'pinfold-embedded-'))
    template = join(work, 'template')
    await createDatabaseTemplate(template)
  })
  afterAll(async () => {
    await rm(work, { recursive: true, force: true })
  })

  it('a fresh data directory starts as a copy of the template: migrated, owner-only, sized for one backend', async () => {
    const dataDir = join(work, 'fresh')
    const { db, fromTemplate } = await openEmbeddedDatabase(dataDir, { template })
    try {
      expect(fromTemplate).toBe(true)
      // the version marker stays with the template
      await expect(lstat(join(dataDir, 'db', 'pglite-version'))).rejects.toThrow()
      await migrate(fromPGlite(db))
      const applied = await db.query<{ count: number }>('select count(*)::int as count from pinfold_migrations')
      expect(applied.rows[0]!.count).toBe(MIGRATIONS.length)
      const settings = await db.query(
        `select current_setting('shared_buffers') as shared_buffers, current_setting('max_connections') as max_connections,
          current_setting('wal_level') as wal_level`,
      )
      expect(settings.rows).toEqual([{ shared_buffers: '8MB', max_connections: '5', wal_level: 'minimal' }])
      expect(await widerThanOwner(join(dataDir, 'db'))).toEqual([])
    } finally {
      await db.close()
    }
  })

  it('a template packed by npm (which drops empty directories) still opens: they are made again', async () => {
    const packed = join(work, 'packed-template')
    await cp(template, packed, { recursive: true })
    let removed = 0
    // deepest first, so a directory emptied by removing its children goes too
    const dirs = (await readdir(packed, { recursive: true, withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort((a, b) => b.length - a.length)
    for (const dir of dirs) {
      if ((await readdir(dir)).length === 0) {
        await rmdir(dir)
        removed++
      }
    }
    expect(removed).toBeGreaterThan(5) // pg_stat, pg_notify, pg_wal/archive_status, …
    const { db, fromTemplate } = await openEmbeddedDatabase(join(work, 'from-packed'), { template: packed })
    try {
      expect(fromTemplate).toBe(true)
      expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }])
    } finally {
      await db.close()
    }
  })

  it('a database that exists is opened as it is, never overwritten by the template', async () => {
    const dataDir = join(work, 'existing')
    const first = await openEmbeddedDatabase(dataDir, { template })
    await first.db.exec('create table kept (note text); insert into kept values ($$still here$$)')
    await first.db.close()
    const again = await openEmbeddedDatabase(dataDir, { template })
    try {
      expect(again.fromTemplate).toBe(false)
      expect((await again.db.query<{ note: string }>('select note from kept')).rows).toEqual([{ note: 'still here' }])
    } finally {
      await again.db.close()
    }
  })

  it('a template made by another PGlite version is not used: initdb runs instead', async () => {
    const other = join(work, 'other-version')
    await createDatabaseTemplate(other)
    await writeFile(join(other, 'pglite-version'), '0.0.1\n')
    const { db, fromTemplate } = await openEmbeddedDatabase(join(work, 'initdb'), { template: other })
    try {
      expect(fromTemplate).toBe(false)
      expect((await db.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }])
    } finally {
      await db.close()
    }
    expect(await readFile(join(other, 'pglite-version'), 'utf8')).toBe('0.0.1\n')
  })
})
