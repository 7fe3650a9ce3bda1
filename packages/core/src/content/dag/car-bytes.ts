import { CarWriter } from '@ipld/car/writer'
import type { CID } from 'multiformats/cid'
import type { Block } from './blocks.js'

/**
 * A CARv1 (header naming `root`, then one section per block) streamed as `blocks` arrive, encoded
 * by `@ipld/car`'s writer. Pull-based: a block is taken from `blocks` only once the bytes before
 * it have been read, so memory stays bounded whatever the CAR's size. A failure of `blocks`
 * surfaces as a failure of this stream, never as a CAR that merely ends early. Stopping early
 * (`return()`) closes `blocks`.
 */
export async function* carBytes(root: CID, blocks: AsyncIterable<Block>): AsyncGenerator<Uint8Array> {
  const { writer, out } = CarWriter.create([root])
  const source = blocks[Symbol.asyncIterator]()
  let stopped = false
  let finished = false
  const feeding = (async () => {
    try {
      for (let next = await source.next(); !next.done && !stopped; next = await source.next()) {
        await writer.put(next.value)
      }
    } finally {
      await writer.close()
      if (stopped) await source.return?.()
      finished = true
    }
  })()
  feeding.catch(() => {}) // observed below once `out` ends; this keeps it from counting as unhandled meanwhile
  const chunks = out[Symbol.asyncIterator]()
  try {
    for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value
    await feeding
  } finally {
    if (!finished) {
      // The reader left early: the writer waits for its output to be read, so drain it until the
      // feeding loop sees `stopped` and closes the source.
      stopped = true
      void (async () => {
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) {}
      })()
    }
  }
}
