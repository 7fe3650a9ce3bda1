import { asyncIterableReader, type BytesReader } from '@ipld/car/decoder'
import { invalid } from '@pinfold/interface'
import { MAX_BLOCK_BYTES } from './blocks.js'

/**
 * Largest CAR header accepted. An upload names exactly one root (well under 100 bytes of
 * dag-cbor), and CARv2's pragma is 11 bytes, so 4 KiB leaves room without letting a header cost memory.
 */
export const MAX_CAR_HEADER_BYTES = 4096

export interface BoundedCarReader extends BytesReader {
  /** Switches from the header's limit to the blocks' one; call once the decoder has read the header. */
  headerRead(): void
}

/**
 * A byte source for `@ipld/car`'s decoder that refuses oversized pieces before buffering them.
 * The decoder reads every length-prefixed piece of a CAR (a header, a section's CID, a block) with
 * one `exactly(length)` whose length is the varint the CAR declares, and gathers that many bytes in
 * memory first: a section declaring 400 MiB would be buffered whole before anything could check it.
 * Here each such read is compared with the limit of the current phase first, so at most the limit
 * (plus one transport chunk) is ever held. Reaching the CARv2 payload is a `seek`, which discards.
 */
export function boundedCarReader(source: AsyncIterable<Uint8Array>): BoundedCarReader {
  const inner = asyncIterableReader(source)
  let piece = 'header'
  let limit = MAX_CAR_HEADER_BYTES
  return {
    upTo: (length) => inner.upTo(length),
    async exactly(length, seek) {
      if (length > limit) {
        throw invalid(`the CAR's ${piece} declares ${length} bytes, more than the ${limit} allowed`)
      }
      return inner.exactly(length, seek)
    },
    seek: (length) => inner.seek(length),
    get pos() {
      return inner.pos
    },
    headerRead() {
      piece = 'block'
      limit = MAX_BLOCK_BYTES
    },
  }
}
