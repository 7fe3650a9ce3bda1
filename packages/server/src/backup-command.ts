import { constants } from 'node:fs'
import { chmod, copyFile, link, lstat, mkdir, opendir, readdir, readFile, rename, rm } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { isPinfoldError, PinfoldError } from '@pinfold/core'
import type { ServerConfig } from './config.js'
import { lockDataDir } from './data-dir-lock.js'
import { makePrivateDir, makeTreePrivate, PRIVATE_FILE_MODE, writePrivateFile } from './private-files.js'

/**
 * What a backup of the embedded default holds, from the data directory. The database files are
 * copied: PostgreSQL rewrites them in place. Blob files are never changed once in place (a write
 * renames a new file over the key, a delete unlinks it), so they are hard links when the backup
 * lies on the same filesystem: no space taken and no time spent, and the pause is the database
 * copy. The development token, the lock and the embedder's download cache are left out: each start
 * makes them again.
 */
const ENTRIES = [
  { name: 'auth-secret', immutable: false },
  { name: 'db', immutable: false },
  { name: 'blobs', immutable: true },
] as const
/** Written last: a backup without it was cut short and is refused by restore. */
const MANIFEST = 'pinfold-backup.json'
const FORMAT = 'pinfold-backup/1'
/** The blob store's temp files of writes in progress (`adapter-fs`): never part of a backup. */
const SKIPPED = new Set([join('blobs', '.tmp')])

export interface BackupSummary {
  files: number
  bytes: number
  /** Files hard-linked rather than copied. */
  linked: number
}

interface Manifest {
  format: typeof FORMAT
  created_at: string
  files: number
  bytes: number
}

/**
 * `pinfold backup <dir>`: a consistent copy of the embedded default (PGlite database, blob files,
 * signing secret) in `target`, which must not exist or be empty. The data directory is locked for
 * the copy, so `pinfold serve` must be stopped: the embedded database belongs to one process.
 */
export async function backupDataDir(config: ServerConfig, target: string): Promise<BackupSummary> {
  embeddedOnly(config, 'backup')
  const dataDir = resolve(config.dataDir)
  target = resolve(target)
  if (target === dataDir || target.startsWith(`${dataDir}/`)) {
    throw new PinfoldError('INVALID_INPUT', `the backup directory ${target} must lie outside the data directory`)
  }
  const lock = await lockForCommand(dataDir, 'backup')
  try {
    if (!(await exists(join(dataDir, 'db')))) {
      throw new PinfoldError('NOT_FOUND', `${dataDir} holds no embedded database: nothing to back up`)
    }
    await claimEmptyDir(target, 'the backup directory')
    const totals: BackupSummary = { files: 0, bytes: 0, linked: 0 }
    try {
      for (const { name, immutable } of ENTRIES) {
        if (await exists(join(dataDir, name))) {
          await copyEntry(join(dataDir, name), join(target, name), name, immutable, totals)
        }
      }
      const manifest: Manifest = { format: FORMAT, created_at: new Date().toISOString(), ...pick(totals) }
      await writePrivateFile(join(target, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
      return totals
    } catch (error) {
      await emptyDir(target)
      throw error
    }
  } finally {
    await lock.release()
  }
}

/**
 * `pinfold restore <dir>`: puts a backup made by `pinfold backup` into the data directory, which
 * must hold no database, blobs or secret (restore into a fresh directory; move an old one aside).
 * Everything is copied under temporary names and renamed into place once complete and counted
 * against the backup's manifest, so a failed restore leaves the directory as it was.
 */
export async function restoreDataDir(config: ServerConfig, source: string): Promise<BackupSummary> {
  embeddedOnly(config, 'restore')
  const dataDir = resolve(config.dataDir)
  source = resolve(source)
  const manifest = await readManifest(source)
  const lock = await lockForCommand(dataDir, 'restore')
  const staged: string[] = []
  try {
    for (const { name } of ENTRIES) {
      if (await exists(join(dataDir, name))) {
        throw new PinfoldError(
          'CONFLICT',
          `${join(dataDir, name)} exists: restore into a fresh data directory (move the current one aside)`,
        )
      }
    }
    const totals: BackupSummary = { files: 0, bytes: 0, linked: 0 }
    try {
      for (const { name, immutable } of ENTRIES) {
        if (!(await exists(join(source, name)))) continue
        const stage = join(dataDir, `${name}.restoring`)
        await rm(stage, { recursive: true, force: true })
        staged.push(name)
        await copyEntry(join(source, name), stage, name, immutable, totals)
      }
      if (totals.files !== manifest.files || totals.bytes !== manifest.bytes) {
        throw new PinfoldError(
          'UNPROCESSABLE',
          `the backup in ${source} is incomplete: its manifest lists ${manifest.files} files (${manifest.bytes} bytes), ` +
            `it holds ${totals.files} (${totals.bytes} bytes)`,
        )
      }
      for (const name of staged) await rename(join(dataDir, `${name}.restoring`), join(dataDir, name))
      return totals
    } catch (error) {
      for (const name of staged) await rm(join(dataDir, `${name}.restoring`), { recursive: true, force: true })
      throw error
    }
  } finally {
    await lock.release()
  }
}

function embeddedOnly(config: ServerConfig, command: string): void {
  const external = [
    config.databaseUrl && 'DATABASE_URL (back it up with pg_dump)',
    config.s3.bucket && 'PINFOLD_S3_BUCKET (use bucket versioning or replication)',
    config.storage === 'memory' && 'PINFOLD_STORAGE=memory (nothing is kept)',
  ].filter(Boolean)
  if (external.length > 0) {
    throw new PinfoldError(
      'INVALID_INPUT',
      `pinfold ${command} covers the embedded default (PGlite and blob files in PINFOLD_DATA_DIR), but ${external.join(' and ')} is set; see docs/deployment.md`,
    )
  }
}

async function lockForCommand(dataDir: string, command: string) {
  try {
    return await lockDataDir(dataDir)
  } catch (error) {
    if (isPinfoldError(error) && error.code === 'CONFLICT') {
      throw new PinfoldError(
        'CONFLICT',
        `${error.message}. pinfold ${command} needs the server stopped: the embedded database belongs to one process (docs/deployment.md#backups)`,
      )
    }
    throw error
  }
}

async function readManifest(source: string): Promise<Manifest> {
  const text = await readFile(join(source, MANIFEST), 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') {
      throw new PinfoldError(
        'NOT_FOUND',
        `${source} is not a complete pinfold backup: it has no ${MANIFEST} (a backup writes it last)`,
      )
    }
    throw error
  })
  let manifest: Partial<Manifest>
  try {
    manifest = JSON.parse(text) as Partial<Manifest>
  } catch {
    manifest = {}
  }
  if (manifest.format !== FORMAT || !Number.isSafeInteger(manifest.files) || !Number.isSafeInteger(manifest.bytes)) {
    throw new PinfoldError('UNPROCESSABLE', `${join(source, MANIFEST)} is not a ${FORMAT} manifest`)
  }
  return manifest as Manifest
}

/** Creates `dir` owner-only, refusing one that holds anything: a backup never overwrites. */
async function claimEmptyDir(dir: string, what: string): Promise<void> {
  await makePrivateDir(dir)
  if ((await readdir(dir)).length > 0) throw new PinfoldError('CONFLICT', `${what} ${dir} is not empty`)
}

async function emptyDir(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [])) await rm(join(dir, name), { recursive: true, force: true })
}

/**
 * Copies a file or a tree, owner-only, counting files and bytes. Immutable files are hard-linked
 * while the two directories share a filesystem, and copied from the first `EXDEV` on.
 */
async function copyEntry(
  from: string,
  to: string,
  relative: string,
  immutable: boolean,
  totals: BackupSummary,
): Promise<void> {
  let linking = immutable
  const visit = async (from: string, to: string, relative: string): Promise<void> => {
    if (SKIPPED.has(relative)) return
    const info = await lstat(from)
    if (info.isDirectory()) {
      await mkdir(to, { mode: 0o700 })
      for await (const entry of await opendir(from)) {
        await visit(join(from, entry.name), join(to, entry.name), join(relative, entry.name))
      }
      return
    }
    if (!info.isFile()) throw new PinfoldError('UNPROCESSABLE', `${from} is neither a file nor a directory`)
    if (linking) {
      try {
        await link(from, to)
        totals.linked++
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code
        if (code !== 'EXDEV' && code !== 'EPERM') throw error
        linking = false
      }
    }
    if (!linking) await copyFile(from, to, constants.COPYFILE_EXCL)
    totals.files++
    totals.bytes += info.size
  }
  await visit(from, to, relative)
  if ((await lstat(to)).isDirectory()) await makeTreePrivate(to)
  else await chmod(to, PRIVATE_FILE_MODE)
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  )
}

const pick = ({ files, bytes }: BackupSummary) => ({ files, bytes })
