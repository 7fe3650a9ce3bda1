import { join } from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import { makePrivateDir, makeTreePrivate } from './private-files.js'

/**
 * Opens the embedded database in `<dataDir>/db` with pgvector. PGlite unpacks a fresh database with
 * world-readable modes (0666), so the tree is made owner-only once it is open; the files PostgreSQL
 * creates afterwards are 0600 already. The caller holds the data directory's lock.
 */
export async function openEmbeddedDatabase(dataDir: string): Promise<{ db: PGlite; path: string }> {
  const path = join(dataDir, 'db')
  const [{ PGlite }, { vector }] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
  ])
  await makePrivateDir(path)
  const db = await PGlite.create(path, { extensions: { vector } })
  try {
    await makeTreePrivate(path)
  } catch (error) {
    await db.close()
    throw error
  }
  return { db, path }
}
