import { type Multiaddr, multiaddr } from '@multiformats/multiaddr'
import { type BlockFetcher, type BlockFetchOptions, invalid, PinfoldError } from '@pinfold/interface'
import type { Blocks } from 'helia'
import { CID } from 'multiformats/cid'
import { createDialGuard, type DialGuard } from './dial-guard.js'

/** How long one block is waited for when the caller gives no signal of its own. */
export const DEFAULT_BLOCK_TIMEOUT_MS = 60_000

/**
 * Pin-by-CID's peer-to-peer source: asks for a block over bitswap, dialling first the multiaddrs the
 * requester named (Pinata's `host_nodes`) and asking every peer the node is connected to. `blocks`
 * is the node's Helia blockstore: it answers from public content Pinfold already holds, else races
 * its block brokers (bitswap) and checks the bytes against the CID's multihash before returning them.
 *
 * A host node is a client's choice of address: its name is resolved by `guard` (the node's own, the
 * same one its libp2p gates every dial with), each address is checked, and only the checked IPs
 * are handed to bitswap, so the address dialled is the address checked. Default: a guard that
 * dials public addresses only.
 */
export function createBitswapFetcher(
  blocks: Pick<Blocks, 'get'>,
  options: { timeoutMs?: number | undefined; guard?: DialGuard | undefined } = {},
): BlockFetcher {
  const timeoutMs = options.timeoutMs ?? DEFAULT_BLOCK_TIMEOUT_MS
  const guard = options.guard ?? createDialGuard()
  return {
    name: 'bitswap',
    async getBlock(cidText: string, { signal, hostNodes }: BlockFetchOptions) {
      const cid = parseCid(cidText)
      const named = (hostNodes ?? []).map(parseMultiaddr)
      const { providers, refused } = await dialableHostNodes(named, guard)
      if (named.length > 0 && providers.length === 0) {
        throw new PinfoldError('NOT_FOUND', `no host node may be dialled (${refused.join('; ')})`)
      }
      const bounded = AbortSignal.any([AbortSignal.timeout(timeoutMs), ...(signal ? [signal] : [])])
      try {
        const chunks: Uint8Array[] = []
        for await (const chunk of blocks.get(cid, { signal: bounded, providers })) chunks.push(chunk)
        return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)
      } catch (cause) {
        if (signal?.aborted) throw new PinfoldError('ABORTED', 'the block fetch was aborted', { cause })
        const where = providers.length > 0 ? `the host nodes (${providers.join(', ')})` : 'any connected peer'
        throw new PinfoldError('NOT_FOUND', `block ${cidText} was not sent over bitswap by ${where}`, { cause })
      }
    },
  }
}

/** The host nodes' addresses that may be dialled, as IPs, and why each other one may not. */
async function dialableHostNodes(named: Multiaddr[], guard: DialGuard) {
  const providers: Multiaddr[] = []
  const refused: string[] = []
  const resolved = await Promise.all(named.map((node) => guard.resolve(node)))
  named.forEach((node, index) => {
    const addresses = resolved[index]!
    if (addresses.length === 0) refused.push(`${node}: its name resolves to no address`)
    for (const address of addresses) {
      const why = guard.refusal(address)
      if (why === undefined) providers.push(address)
      else refused.push(`${node}: ${why}`)
    }
  })
  return { providers, refused }
}

function parseCid(text: string): CID {
  try {
    return CID.parse(text)
  } catch {
    throw invalid(`${JSON.stringify(text.slice(0, 100))} is not a valid CID`)
  }
}

function parseMultiaddr(text: string): Multiaddr {
  try {
    return multiaddr(text)
  } catch {
    throw invalid(`host node ${JSON.stringify(text.slice(0, 200))} is not a multiaddr`)
  }
}
