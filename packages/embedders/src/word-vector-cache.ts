import { randomUUID } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { endianness } from 'node:os'
import { dirname } from 'node:path'
import { indexWords, type WordVectors } from './word-vectors.js'

/*
 * Binary cache layout (little-endian), read in one `readFile`:
 *   "PFWV0002"                 8-byte magic + format version
 *   u32 headerBytes            length of the UTF-8 JSON header that follows
 *   header                     { source, dimensions, size }
 *   u32 wordsBytes             length of the UTF-8 words that follow
 *   words                      joined by "\n": splitting is ~30× faster than JSON.parse of an array
 *   padding to a multiple of 4 so the matrix can be viewed in place as a Float32Array
 *   matrix                     size × dimensions float32
 */
const MAGIC = 'PFWV0002'
const isLittleEndian = endianness() === 'LE'

export async function writeWordVectorCache(path: string, vectors: WordVectors): Promise<void> {
  const header = Buffer.from(
    JSON.stringify({ source: vectors.source, dimensions: vectors.dimensions, size: vectors.words.length }),
  )
  if (vectors.words.some((word) => word.includes('\n'))) throw new Error('a word contains a line break')
  const words = Buffer.from(vectors.words.join('\n'))
  const prefixBytes = 8 + 4 + header.length + 4 + words.length
  const padding = (4 - (prefixBytes % 4)) % 4
  const prefix = Buffer.alloc(prefixBytes + padding)
  let at = prefix.write(MAGIC, 0, 'latin1')
  at = prefix.writeUInt32LE(header.length, at)
  at += header.copy(prefix, at)
  at = prefix.writeUInt32LE(words.length, at)
  words.copy(prefix, at)
  const matrix = Buffer.from(vectors.matrix.buffer, vectors.matrix.byteOffset, vectors.matrix.byteLength)
  if (!isLittleEndian) matrix.swap32()

  // Write then rename, so a concurrent reader (another process) never sees a half-written cache.
  // Owner-only, like everything else in the server's data directory where the cache lives.
  await mkdir(dirname(path), { recursive: true, mode: 0o700 })
  const temporary = `${path}.${randomUUID()}.tmp`
  try {
    await writeFile(temporary, [prefix, matrix], { mode: 0o600 })
    await rename(temporary, path)
  } finally {
    await rm(temporary, { force: true })
  }
}

/** The cached vectors, or `undefined` when the file is missing, foreign, or made from another source. */
export async function readWordVectorCache(path: string, expectedSource: string): Promise<WordVectors | undefined> {
  let file: Buffer
  try {
    file = await readFile(path)
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw err
  }
  if (file.length < 16 || file.toString('latin1', 0, 8) !== MAGIC) return undefined
  let at = 8
  const headerBytes = file.readUInt32LE(at)
  at += 4
  const header = JSON.parse(file.toString('utf8', at, at + headerBytes)) as {
    source: string
    dimensions: number
    size: number
  }
  at += headerBytes
  if (header.source !== expectedSource) return undefined
  const wordsBytes = file.readUInt32LE(at)
  at += 4
  const words = file.toString('utf8', at, at + wordsBytes).split('\n')
  at += wordsBytes
  at += (4 - (at % 4)) % 4
  const values = header.size * header.dimensions
  if (words.length !== header.size || file.length !== at + values * 4) return undefined
  if (!isLittleEndian) file.subarray(at).swap32()
  // readFile returns a Buffer that may start at an offset in its ArrayBuffer; byteOffset + at stays 4-aligned
  // only if byteOffset is, so copy when it isn't.
  const matrix =
    (file.byteOffset + at) % 4 === 0
      ? new Float32Array(file.buffer, file.byteOffset + at, values)
      : new Float32Array(file.buffer.slice(file.byteOffset + at, file.byteOffset + at + values * 4))
  return { source: header.source, dimensions: header.dimensions, words, matrix, rows: indexWords(words) }
}
