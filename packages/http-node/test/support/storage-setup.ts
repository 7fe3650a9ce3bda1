import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { MemoryBlobStore } from '@pinfold/adapter-memory'
import pg from 'pg'
import type { RunningServer } from '../../src/index.js'

/**
 * Which storage the HTTP suite runs on, from `PINFOLD_TEST_STORAGE`:
 * - `memory` (default): memory records and blobs;
 * - `embedded`: PGlite + filesystem blobs in a temporary data directory (the server's default);
 * - `postgres`: a real PostgreSQL server (`TEST_DATABASE_URL`, a fresh schema per server) + fs blobs.
 * CI runs the suite once per setup.
 */
export const STORAGE = (process.env.PINFOLD_TEST_STORAGE ?? 'memory') as 'memory' | 'embedded' | 'postgres'

/** Server environment for the chosen setup. */
export async function storageEnv(): Promise<Record<string, string>> {
  if (STORAGE === 'memory') return { PINFOLD_STORAGE: 'memory' }
  if (STORAGE === 'embedded') return { PINFOLD_STORAGE: 'embedded' }
  const url = process.env.TEST_DATABASE_URL
  if (!url) throw new Error('PINFOLD_TEST_STORAGE=postgres needs TEST_DATABASE_URL')
  const schema = `http_${Math.random().toString(36).slice(2, 10)}`
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`create schema ${schema}`)
  await client.end()
  const withSchema = new URL(url)
  withSchema.searchParams.set('options', `-c search_path=${schema}`)
  return { PINFOLD_STORAGE: 'embedded', DATABASE_URL: withSchema.toString() }
}

/** How many blobs the server's store holds, read from the backend itself (sync, for assertions). */
export function countBlobs(running: RunningServer, dataDir: string): number {
  if (STORAGE === 'memory') return (running.service.blobs as MemoryBlobStore).count
  return countFiles(join(dataDir, 'blobs', 'blobs'), '.blob')
}

function countFiles(directory: string, suffix: string): number {
  let count = 0
  let entries: import('node:fs').Dirent[]
  try {
    entries = readdirSync(directory, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const entry of entries) {
    if (entry.isDirectory()) count += countFiles(join(directory, entry.name), suffix)
    else if (entry.name.endsWith(suffix)) count++
  }
  return count
}
