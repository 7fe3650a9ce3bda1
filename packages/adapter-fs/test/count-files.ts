import { readdir } from 'node:fs/promises'

/** Every file under `dir`, temp files included: the raw probe that proves nothing leaked. */
export async function countFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((entry) => entry.isFile()).length
}
