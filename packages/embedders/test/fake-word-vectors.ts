import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A tiny package in wink-embeddings' JSON format, so load and cache paths can be tested in
 * milliseconds. Words are given in frequency order; each gets a 100-d vector along `axis` plus noise.
 */
export async function writeFakeWordVectorsPackage(words: Record<string, number>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'pinfold-fake-vectors-'))
  const dimensions = 100
  const vectors: Record<string, number[]> = {}
  Object.entries(words).forEach(([word, axis], row) => {
    const vector = Array.from({ length: dimensions }, (_, d) => (d === axis ? 1 : ((row * 31 + d * 17) % 7) / 100))
    vectors[word] = [...vector, 1, row]
  })
  const json = { precision: 8, l2NormIndex: 100, wordIndex: 101, size: Object.keys(words).length, dimensions }
  await writeFile(join(folder, 'vectors.json'), JSON.stringify({ ...json, words: Object.keys(words), vectors }))
  await writeFile(
    join(folder, 'package.json'),
    JSON.stringify({ name: 'fake-word-vectors', version: '1.0.0', main: 'vectors.json' }),
  )
  return folder
}
