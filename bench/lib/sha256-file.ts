import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'

/** Streaming SHA-256 of a file in 1 MiB reads: the baseline every upload figure is divided by. */
export async function sha256File(path: string, size: number): Promise<{ MBps: number; hex: string }> {
  const start = process.hrtime.bigint()
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer)
  const hex = hash.digest('hex')
  const seconds = Number(process.hrtime.bigint() - start) / 1e9
  return { MBps: size / 1e6 / seconds, hex }
}
