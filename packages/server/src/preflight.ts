import { once } from 'node:events'
import { createServer } from 'node:net'
import { PinfoldError } from '@pinfold/core'
import type { ServerConfig } from './config.js'
import { ensureWritableDataDir, writesDataDir } from './writable-data-dir.js'

/**
 * The checks `pinfold serve` runs before it creates anything: the port free (a port in use used to
 * surface as `listen EADDRINUSE` after a 40 MB database had been made) and the data directory
 * writable, each failure one message naming the setting to change.
 */
export async function preflight(config: ServerConfig): Promise<void> {
  await ensurePortFree(config.host, config.port)
  if (writesDataDir(config, false)) await ensureWritableDataDir(config.dataDir)
}

/** Binds and releases `host:port` (port 0 is always free); a refusal names `PORT` and `HOST`. */
export async function ensurePortFree(host: string, port: number): Promise<void> {
  if (port === 0) return
  const probe = createServer()
  try {
    probe.listen({ host, port, exclusive: true })
    await once(probe, 'listening')
  } catch (error) {
    throw portError(host, port, error)
  } finally {
    if (probe.listening) {
      probe.close()
      await once(probe, 'close')
    }
  }
}

/** The message for a port that cannot be listened on, at the preflight or at the real listen. */
export function portError(host: string, port: number, error: unknown): PinfoldError {
  const code = (error as NodeJS.ErrnoException).code
  const why =
    code === 'EADDRINUSE'
      ? 'is in use by another program (another pinfold?)'
      : code === 'EACCES'
        ? 'needs privileges this user lacks (ports below 1024)'
        : code === 'EADDRNOTAVAIL'
          ? `cannot be bound: ${host} is not an address of this machine (set HOST)`
          : `cannot be listened on (${code ?? String(error)})`
  return new PinfoldError(
    'UNAVAILABLE',
    `port ${port} on ${host} ${why}: set PORT to a free port (PORT=${port === 65535 ? 3000 : port + 1} pinfold serve), or stop what listens there`,
    { cause: error },
  )
}
