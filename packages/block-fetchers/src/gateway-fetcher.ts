import { trustlessGateway } from '@helia/block-brokers'
import { httpGatewayRouting } from '@helia/routers'
import { defaultLogger } from '@libp2p/logger'
import { abortError, type BlockFetcher, optionChecks, PinfoldError } from '@pinfold/interface'
import { CID } from 'multiformats/cid'

type BrokerComponents = Parameters<ReturnType<typeof trustlessGateway>>[0]

export interface GatewayFetcherOptions {
  /**
   * Trustless gateways (https://specs.ipfs.tech/http-gateways/trustless-gateway/) by base URL,
   * e.g. `https://trustless-gateway.link`. Plain `http://` and private addresses are allowed: an
   * operator names these on purpose (a gateway on the same network, another Pinfold).
   */
  gateways: readonly string[]
}

/**
 * A {@link BlockFetcher} over trustless HTTP gateways, through Helia's trustless-gateway block
 * broker: each block is a `GET /ipfs/{cid}?format=raw` with `Accept: application/vnd.ipld.raw`,
 * at most 2 MiB read, tried at each gateway in turn (the broker puts the most reliable first and
 * never asks one gateway for the same block twice at once). The broker does not verify blocks;
 * the pin job re-hashes each one, so a gateway never has to be trusted.
 */
export function createGatewayFetcher(options: GatewayFetcherOptions): BlockFetcher {
  const check = optionChecks('@pinfold/block-fetchers', 'createGatewayFetcher')
  check.require(
    'gateways',
    Array.isArray(options?.gateways) && options.gateways.length > 0,
    'must list at least one URL',
  )
  const gateways = options.gateways.map((url, index) => check.httpUrl(`gateways[${index}]`, url).toString())
  const broker = trustlessGateway({ allowInsecure: true, allowLocal: true })({
    // the broker asks its routing only for providers, which is all a static gateway list answers
    routing: httpGatewayRouting({ gateways, shuffle: false }) as BrokerComponents['routing'],
    logger: defaultLogger(),
  })
  // the trustless-gateway broker always has `retrieve` (optional only in the BlockBroker interface)
  const retrieve = broker.retrieve!.bind(broker)
  return {
    name: 'gateways',
    async getBlock(cid, { signal }) {
      try {
        return await retrieve(CID.parse(cid), { signal })
      } catch (error) {
        if (signal?.aborted) throw abortError(signal)
        const reasons = error instanceof AggregateError ? error.errors.map((e) => (e as Error).message) : []
        throw new PinfoldError('NOT_FOUND', [(error as Error).message, ...reasons].join(': '), { cause: error })
      }
    },
  }
}
