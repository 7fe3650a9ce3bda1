/**
 * What the server's embedded IPFS node (if any) tells the handler about itself: the routing API
 * lists it as a bitswap provider and `/healthz` reports it. Plain data, so the handler never depends
 * on libp2p; the server passes a getter, as addresses can change while it runs.
 */
export interface IpfsPeer {
  /** The node's peer id. */
  peerId: string
  /** Multiaddrs peers reach it at, with or without the trailing `/p2p/<peerId>`. */
  addrs: readonly string[]
  /** Its Amino DHT participation, when on. */
  dht?:
    | {
        mode: 'client' | 'server'
        /** Reprovide runs finished, and the last one's counts (roots announced, failed, no longer announced). */
        runs: number
        provided: number
        failed: number
        withdrawn: number
        lastRunAt: Date | undefined
      }
    | undefined
}
