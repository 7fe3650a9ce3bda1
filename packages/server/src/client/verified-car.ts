import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { CarBlockIterator } from '@ipld/car/iterator'
import { CID } from 'multiformats/cid'
import { identity } from 'multiformats/hashes/identity'
import type { MultihashHasher } from 'multiformats/hashes/interface'
import { sha256, sha512 } from 'multiformats/hashes/sha2'
import { CliError } from './cli-error.js'

/** The hashes a UnixFS DAG from this server (or Kubo) uses; a block under any other is refused. */
const HASHERS: ReadonlyMap<number, MultihashHasher> = new Map<number, MultihashHasher>([
  [sha256.code, sha256],
  [sha512.code, sha512],
  [identity.code, identity],
])

/**
 * The blocks of one DAG, each checked against its CID as it arrived and kept in a temporary folder
 * (never in memory: a DAG can be larger than it), in the order the CAR sent them.
 */
export interface VerifiedBlocks {
  readonly root: CID
  /** Every block's CID, in arrival order (a CAR re-encoded from them is the one received). */
  readonly order: readonly CID[]
  /** The exporter's blockstore shape over the kept blocks. */
  readonly blockstore: { get(cid: CID): AsyncGenerator<Uint8Array> }
  read(cid: CID): Promise<Uint8Array>
  /** Deletes the temporary folder. */
  dispose(): Promise<void>
}

/**
 * Reads a CAR from `body`, refusing it unless its root is `expected` and every block hashes to its
 * CID. `spoolParent` is where the temporary folder goes (next to the output, so a large DAG uses
 * the disk the user chose); `onBytes` sees each verified block's size.
 */
export async function receiveVerifiedCar(
  body: AsyncIterable<Uint8Array>,
  expected: CID,
  spoolParent: string,
  onBytes: (bytes: number) => void,
): Promise<VerifiedBlocks> {
  const spool = await mkdtemp(join(spoolParent, '.pinfold-get-'))
  const path = (cid: CID) => join(spool, cid.toV1().toString())
  const order: CID[] = []
  try {
    let blocks: CarBlockIterator
    try {
      blocks = await CarBlockIterator.fromIterable(body)
    } catch (error) {
      throw new CliError(`the server did not answer a CAR: ${(error as Error).message}`)
    }
    const roots = await blocks.getRoots()
    if (roots.length !== 1 || !roots[0]!.equals(expected)) {
      throw new CliError(`the server's CAR is rooted at ${roots.join(', ') || 'nothing'}, not ${expected}`)
    }
    for await (const block of blocks) {
      await verifyBlock(block.cid, block.bytes)
      await writeFile(path(block.cid), block.bytes)
      order.push(block.cid)
      onBytes(block.bytes.byteLength)
    }
  } catch (error) {
    await rm(spool, { recursive: true, force: true })
    throw error
  }
  const read = async (cid: CID): Promise<Uint8Array> => {
    if (cid.multihash.code === identity.code) return cid.multihash.digest
    try {
      return await readFile(path(cid))
    } catch {
      throw new CliError(`the server's CAR lacks block ${cid}: the content is incomplete, nothing was written`)
    }
  }
  return {
    root: expected,
    order,
    read,
    blockstore: {
      async *get(cid: CID) {
        yield await read(cid)
      },
    },
    dispose: () => rm(spool, { recursive: true, force: true }),
  }
}

async function verifyBlock(cid: CID, bytes: Uint8Array): Promise<void> {
  const hasher = HASHERS.get(cid.multihash.code)
  if (!hasher)
    throw new CliError(`block ${cid} uses hash 0x${cid.multihash.code.toString(16)}, which pinfold cannot check`)
  const digest = (await hasher.digest(bytes)).digest
  const want = cid.multihash.digest
  if (digest.byteLength !== want.byteLength || !digest.every((byte, i) => byte === want[i])) {
    throw new CliError(`block ${cid} does not hash to its CID: the server sent wrong bytes, nothing was written`)
  }
}

/** A CID as typed, or a usage error. */
export function parseCidArgument(text: string): CID {
  try {
    return CID.parse(text)
  } catch {
    throw new CliError(`${JSON.stringify(text)} is not a CID`, 2)
  }
}
