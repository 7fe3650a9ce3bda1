import type { IpfsPeer } from '@pinfold/http'
import { Counter, Gauge, type Registry } from 'prom-client'

/**
 * The embedded IPFS node's reprovider, read at each scrape from what `/healthz` reports: runs so
 * far, and what the last finished run announced, failed to announce and withdrew.
 */
export function watchIpfs(registers: Registry[]) {
  let peer: (() => IpfsPeer) | undefined
  const dht = () => peer?.().dht
  new Counter({
    name: 'pinfold_ipfs_reprovide_runs_total',
    help: 'Reprovide runs the embedded IPFS node finished (every public root announced on the DHT).',
    registers,
    collect() {
      const status = dht()
      this.reset()
      if (status) this.inc(status.runs)
    },
  })
  new Gauge({
    name: 'pinfold_ipfs_reprovide_last_run_roots',
    help: 'Public roots of the last finished reprovide run, by outcome (provided, failed, withdrawn).',
    labelNames: ['outcome'] as const,
    registers,
    collect() {
      const status = dht()
      if (!status) return
      this.set({ outcome: 'provided' }, status.provided)
      this.set({ outcome: 'failed' }, status.failed)
      this.set({ outcome: 'withdrawn' }, status.withdrawn)
    },
  })
  new Gauge({
    name: 'pinfold_ipfs_reprovide_last_run_timestamp_seconds',
    help: 'When the last reprovide run finished (Unix seconds); absent before the first.',
    registers,
    collect() {
      const at = dht()?.lastRunAt
      this.reset()
      if (at) this.set(at.getTime() / 1000)
    },
  })
  return {
    /** Reads the node's reprovider at each scrape. */
    ipfsPeer(read: () => IpfsPeer): void {
      peer = read
    },
  }
}
