import { BaseBlockstore } from 'blockstore-core'
import { NotFoundError } from 'interface-store'
import type { CID } from 'multiformats/cid'

/**
 * How the node reads a block: the bytes of public content Pinfold holds, checked against the CID's
 * multihash, or `undefined` when no unexpired public content holds it (the server passes
 * `FileService.gateway.publicBlock`). Private content must never be returned.
 */
export type PublicBlockReader = (
  cid: string,
  options: { signal?: AbortSignal | undefined },
) => Promise<Uint8Array | undefined>

/** Reads kept between bitswap's `has` and its `get` of the same block, so a block is read once. */
const PENDING_LIMIT = 64
/** A kept read older than this is read again: the content may have been deleted meanwhile. */
const PENDING_MS = 5_000

/**
 * The blockstore under the node's Helia: bitswap answers peers' wants from it. Bitswap asks `has` and
 * then `get` for each wanted block: the read made by `has` is kept for the `get` that follows (a few
 * dozen at most). Nothing is ever stored here: see {@link PublicBlockstore.put}.
 */
export class PublicBlockstore extends BaseBlockstore {
  readonly #read: PublicBlockReader
  readonly #onError: (cid: CID, error: unknown) => void
  readonly #pending = new Map<string, { bytes: Uint8Array; at: number }>()

  constructor(read: PublicBlockReader, onError: (cid: CID, error: unknown) => void) {
    super()
    this.#read = read
    this.#onError = onError
  }

  override async has(cid: CID, options?: { signal?: AbortSignal }): Promise<boolean> {
    // Helia's own blockstore asks `has` again before each `get`: a fresh read already kept answers it
    if (this.#kept(cid.toString())) return true
    const bytes = await this.#readOrNothing(cid, options)
    if (!bytes) return false
    this.#pending.set(cid.toString(), { bytes, at: Date.now() })
    if (this.#pending.size > PENDING_LIMIT) this.#pending.delete(this.#pending.keys().next().value!)
    return true
  }

  /**
   * Blocks the bitswap fetcher receives pass through Helia's blockstore on their way to the caller.
   * Pinfold keeps content only through its content layer, once a pin job has the whole DAG verified,
   * so they are dropped here; deletes have nothing to remove.
   */
  override put(cid: CID, _bytes: unknown): CID {
    return cid
  }

  override delete(): void {}

  override async *get(cid: CID, options?: { signal?: AbortSignal }): AsyncGenerator<Uint8Array> {
    const key = cid.toString()
    const kept = this.#kept(key)
    this.#pending.delete(key)
    const bytes = kept ?? (await this.#readOrNothing(cid, options))
    if (!bytes) throw new NotFoundError(`block ${key} is not public content held here`)
    yield bytes
  }

  #kept(key: string): Uint8Array | undefined {
    const entry = this.#pending.get(key)
    if (entry && Date.now() - entry.at <= PENDING_MS) return entry.bytes
    this.#pending.delete(key)
    return undefined
  }

  /**
   * A block that cannot be read correctly (its stored bytes no longer match, a store failing) is one
   * this node does not have: bitswap then answers "don't have" rather than dropping the peer's wants.
   */
  async #readOrNothing(cid: CID, options?: { signal?: AbortSignal }): Promise<Uint8Array | undefined> {
    try {
      return await this.#read(cid.toString(), { signal: options?.signal })
    } catch (error) {
      if (options?.signal?.aborted) throw error
      this.#onError(cid, error)
      return undefined
    }
  }
}
