import { open, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { PinfoldError } from '@pinfold/core'
import { makePrivateDir, PRIVATE_FILE_MODE } from './private-files.js'

export interface DataDirLock {
  release(): Promise<void>
}

/**
 * Claims a data directory for this process. PGlite does not lock its files, and two processes on
 * one database directory corrupt it, so a second server on the same directory is refused. A lock
 * left by a process that died (kill -9) is taken over: the PID in it no longer runs.
 */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  // every process that uses the directory locks it first: the place to make (or keep) it private
  await makePrivateDir(dataDir)
  const path = join(dataDir, 'pinfold.lock')
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(path, 'wx', PRIVATE_FILE_MODE)
      await handle.writeFile(`${process.pid}\n`)
      await handle.close()
      return { release: () => rm(path, { force: true }) }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const holder = Number.parseInt(await readFile(path, 'utf8').catch(() => ''), 10)
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && isRunning(holder)) {
      throw new PinfoldError(
        'CONFLICT',
        `another pinfold process (pid ${holder}) is using the data directory ${dataDir}; stop it or set PINFOLD_DATA_DIR`,
      )
    }
    await rm(path, { force: true }) // stale: its process is gone
  }
  throw new PinfoldError('CONFLICT', `could not lock the data directory ${dataDir}`)
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}
