import { cp, mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PGlite, PGliteOptions } from '@electric-sql/pglite'
import { takeCompiledAhead, useBaselineWasmCompiler } from './embedded-database-wasm.js'
import { makePrivateDir, makeTreePrivate } from './private-files.js'

/**
 * PostgreSQL's defaults size a server for 100 connections and 128 MB of shared buffers; the
 * embedded database is one single-user backend in WebAssembly, whose memory only ever grows. These
 * settings (measured in bench/footprint.ts, figures in bench/README.md) take a reopened database
 * from ~300 to ~110 MB. Reads that miss the small buffer pool are served by the kernel's page cache
 * (PGlite's files are ordinary files), so they cost a copy, not a disk read. Written to
 * postgresql.conf on every open, so a data directory made by an older version gets them too.
 */
export const EMBEDDED_DATABASE_SETTINGS = [
  'shared_buffers = 8MB',
  'wal_buffers = 256kB',
  // one backend: no client connections, no autovacuum workers, no replication
  'max_connections = 5',
  'superuser_reserved_connections = 0',
  'reserved_connections = 0',
  'autovacuum_worker_slots = 1',
  'max_wal_senders = 0',
  'max_replication_slots = 0',
  'wal_level = minimal',
]

/** Where a build puts the template database (`tsup.config.ts`); absent when running from source. */
const BUILT_TEMPLATE = fileURLToPath(new URL('./database-template', import.meta.url))
const TEMPLATE_VERSION_FILE = 'pglite-version'
/**
 * The template's empty directories (pg_stat, pg_notify, pg_wal/archive_status, …), which PostgreSQL
 * needs and `npm pack` leaves out of a package: recorded at build time, made again on copy.
 */
const TEMPLATE_EMPTY_DIRS_FILE = 'empty-directories.json'
const TEMPLATE_MARKERS = [TEMPLATE_VERSION_FILE, TEMPLATE_EMPTY_DIRS_FILE]

export interface EmbeddedDatabaseOptions {
  /** A fresh database made by `createDatabaseTemplate`, copied instead of running initdb. */
  template?: string | undefined
}

/**
 * Opens the embedded database in `<dataDir>/db` with pgvector. A fresh directory starts as a copy of
 * the template database made at build time when there is one for this PGlite version: PGlite's
 * initdb runs a second PostgreSQL instance in the same process and peaks at ~650–900 MB, a copy at
 * the reopened figure. PGlite unpacks a fresh database with world-readable modes (0666), so the tree
 * is made owner-only once it is open; the files PostgreSQL creates afterwards are 0600 already.
 * The caller holds the data directory's lock.
 */
export async function openEmbeddedDatabase(
  dataDir: string,
  { template = BUILT_TEMPLATE }: EmbeddedDatabaseOptions = {},
): Promise<{ db: PGlite; path: string; fromTemplate: boolean }> {
  const path = join(dataDir, 'db')
  await makePrivateDir(path)
  const fromTemplate = !(await exists(join(path, 'PG_VERSION'))) && (await templateFits(template))
  if (fromTemplate) await copyTemplate(template, path)
  const db = await createPGlite(path)
  try {
    await makeTreePrivate(path)
  } catch (error) {
    await db.close()
    throw error
  }
  return { db, path, fromTemplate }
}

/**
 * Runs initdb into `directory` (which must not hold a database) and records the PGlite version that
 * made it, so `openEmbeddedDatabase` copies it only into a PGlite that reads the same catalog.
 */
export async function createDatabaseTemplate(directory: string): Promise<void> {
  const db = await createPGlite(directory)
  await db.close()
  const entries = await readdir(directory, { recursive: true, withFileTypes: true })
  const empty: string[] = []
  for (const entry of entries.filter((e) => e.isDirectory())) {
    const dir = join(entry.parentPath, entry.name)
    if ((await readdir(dir)).length === 0) empty.push(dir.slice(directory.length + 1))
  }
  await writeFile(join(directory, TEMPLATE_EMPTY_DIRS_FILE), `${JSON.stringify(empty.sort(), null, 1)}\n`)
  await writeFile(join(directory, TEMPLATE_VERSION_FILE), `${await pgliteVersion()}\n`)
}

async function copyTemplate(template: string, path: string): Promise<void> {
  await cp(template, path, { recursive: true, filter: (source) => !isTemplateMarker(source) })
  const empty = JSON.parse(await readFile(join(template, TEMPLATE_EMPTY_DIRS_FILE), 'utf8')) as string[]
  for (const dir of empty) await mkdir(join(path, dir), { recursive: true })
}

async function createPGlite(path: string): Promise<PGlite> {
  useBaselineWasmCompiler()
  const [{ PGlite }, { vector }, pgliteWasmModule] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite-pgvector'),
    takeCompiledAhead(),
  ])
  const options: PGliteOptions = {
    extensions: { vector },
    postgresqlconf: EMBEDDED_DATABASE_SETTINGS,
    ...(pgliteWasmModule && { pgliteWasmModule }),
  }
  return PGlite.create(path, options)
}

async function templateFits(template: string): Promise<boolean> {
  const recorded = await readFile(join(template, TEMPLATE_VERSION_FILE), 'utf8').catch(() => undefined)
  return recorded?.trim() === (await pgliteVersion())
}

async function pgliteVersion(): Promise<string> {
  // the package exports no package.json; its entry point is <package>/dist/index.cjs
  const entry = createRequire(import.meta.url).resolve('@electric-sql/pglite')
  const manifest = JSON.parse(await readFile(join(dirname(entry), '..', 'package.json'), 'utf8')) as { version: string }
  return manifest.version
}

function isTemplateMarker(source: string): boolean {
  return TEMPLATE_MARKERS.some((marker) => source.endsWith(`/${marker}`))
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  )
}
