/**
 * Where Pinfold's pin-by-CID jobs fetch blocks it does not hold: {@link BlockFetcher}s (a port of
 * `@pinfold/interface`). Pass them to `createFileService({ blockFetchers })`, asked in that order.
 *
 * ```ts
 * import { createGatewayFetcher } from '@pinfold/block-fetchers'
 *
 * const blockFetchers = [createGatewayFetcher({ gateways: ['https://trustless-gateway.link'] })]
 * ```
 */
export { createGatewayFetcher, type GatewayFetcherOptions } from './gateway-fetcher.js'
