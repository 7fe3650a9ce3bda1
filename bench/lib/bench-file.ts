import { createWriteStream } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { benchBytes } from './bytes.js'

export const WORK_DIR = fileURLToPath(new URL('../.work', import.meta.url))

/** A file of `size` incompressible bytes under bench/.work, written once and reused across runs. */
export async function benchFile(size: number): Promise<string> {
  await mkdir(WORK_DIR, { recursive: true })
  const path = join(WORK_DIR, `bytes-${size}.bin`)
  if ((await stat(path).catch(() => undefined))?.size === size) return path
  const out = createWriteStream(path)
  for (const chunk of benchBytes(size)) {
    if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', () => resolve()))
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())))
  return path
}
