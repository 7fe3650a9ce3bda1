import { createHash } from 'node:crypto'

/** The SHA-256 (hex) and size of the bytes an IPFS client read, to compare with what was uploaded. */
export async function digestOf(chunks) {
  const hash = createHash('sha256')
  let size = 0
  for await (const chunk of chunks) {
    hash.update(chunk)
    size += chunk.byteLength
  }
  return { sha256: hash.digest('hex'), size }
}
