import { randomFillSync } from 'node:crypto'

const POOL = randomFillSync(Buffer.allocUnsafe(64 * 1024 * 1024))

/**
 * `total` incompressible bytes in 1 MiB chunks, cycling through a 64 MiB random pool at a shifting
 * offset, so generating them costs almost nothing and no two 256 KiB chunks of a 1 GiB file repeat.
 */
export function* benchBytes(total: number, chunkSize = 1024 * 1024): Generator<Buffer> {
  let offset = 0
  let sent = 0
  let turn = 0
  while (sent < total) {
    const size = Math.min(chunkSize, total - sent)
    if (offset + size > POOL.length) offset = ++turn * 4099 // shift by a prime so blocks differ between turns
    yield POOL.subarray(offset, offset + size)
    offset += size
    sent += size
  }
}
