import type { FairSlotsStats } from '@pinfold/core'
import { Counter, Gauge, type Registry } from 'prom-client'

/** Something with bounded slots shared by tenants: the text extraction pool, the image transformer. */
export interface WatchedPool {
  stats(): FairSlotsStats
}

/**
 * The work pools' slots, read at each scrape (a few numbers per pool): tasks running and waiting,
 * and tasks refused with `RATE_LIMITED` (a tenant over its share, or the queue full).
 */
export function watchPools(registers: Registry[]) {
  const pools = new Map<string, WatchedPool>()
  new Gauge({
    name: 'pinfold_pool_tasks',
    help: 'Tasks in a work pool (pool="extraction", "images"), by state ("running" holds a slot, "waiting" is queued).',
    labelNames: ['pool', 'state'] as const,
    registers,
    collect() {
      for (const [pool, watched] of pools) {
        const { running, waiting } = watched.stats()
        this.set({ pool, state: 'running' }, running)
        this.set({ pool, state: 'waiting' }, waiting)
      }
    },
  })
  new Counter({
    name: 'pinfold_pool_refused_total',
    help: 'Tasks a work pool refused (RATE_LIMITED): a tenant over its share, or the queue full.',
    labelNames: ['pool'] as const,
    registers,
    collect() {
      // the pool keeps the total since it was made (it only grows): the counter is set to it
      this.reset()
      for (const [pool, watched] of pools) this.inc({ pool }, watched.stats().refused)
    },
  })
  return {
    /** Reads `watched`'s slots at each scrape, as `pool`. */
    pool(name: string, watched: WatchedPool): void {
      pools.set(name, watched)
    },
  }
}
