import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  hitCount?: number
}

interface CpuProfile {
  nodes: ProfileNode[]
  samples: number[]
}

export interface HotSpot {
  where: string
  share: number
}

/** Where a frame lives, short enough for a table: `pkg/file.js` for dependencies, `node:…` for Node. */
function place(url: string): string {
  if (url === '') return '(native)'
  if (url.startsWith('node:')) return url
  const dependency = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url)
  if (dependency) return `${dependency[1]}/${dependency[2]!.split('/').pop()}`
  const workspace = /\/packages\/([^/]+)\/.*?([^/]+)$/.exec(url)
  return workspace ? `@pinfold/${workspace[1]}/${workspace[2]}` : url.split('/').slice(-2).join('/')
}

/**
 * Self time of the `.cpuprofile` files in `directory` (written by `node --cpu-prof`), summed by
 * function and by where the code lives, as shares of all samples. Idle time is left out, so the
 * shares say what the process spent its busy time on.
 */
export function hotSpots(directory: string, top = 12): { functions: HotSpot[]; places: HotSpot[] } {
  const byFunction = new Map<string, number>()
  const byPlace = new Map<string, number>()
  let busy = 0
  for (const name of readdirSync(directory).filter((file) => file.endsWith('.cpuprofile'))) {
    const profile = JSON.parse(readFileSync(join(directory, name), 'utf8')) as CpuProfile
    const hits = new Map<number, number>()
    for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1)
    for (const node of profile.nodes) {
      const count = hits.get(node.id) ?? 0
      const { functionName, url } = node.callFrame
      if (count === 0 || functionName === '(idle)' || functionName === '(program)') continue
      busy += count
      const where = place(url)
      const fn = `${functionName || '(anonymous)'} ${where}`
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + count)
      byPlace.set(where, (byPlace.get(where) ?? 0) + count)
    }
  }
  const rank = (map: Map<string, number>) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([where, count]) => ({ where, share: count / busy }))
  return { functions: rank(byFunction), places: rank(byPlace) }
}
