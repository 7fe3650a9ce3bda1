// Run as a child process by startup-heap.test.ts: the young generation's size while survivors pile
// up, with the growth held and after it is released. Prints one JSON line.
import { getHeapSpaceStatistics } from 'node:v8'
import { holdYoungGeneration, releaseYoungGeneration } from '../../src/startup-heap.js'

const youngMb = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')!.space_size / 2 ** 20
const kept: object[] = []
/** What start-up does to the young generation: many allocations, a third of them kept for good. */
function survivors(count: number): void {
  for (let i = 0; i < count; i++) {
    const entry = { i, text: `entry ${i}` }
    if (i % 3 === 0) kept.push(entry)
  }
}

const initial = youngMb()
holdYoungGeneration()
survivors(2_000_000)
const held = youngMb()
releaseYoungGeneration()
survivors(2_000_000)
process.stdout.write(`${JSON.stringify({ initial, held, released: youngMb(), kept: kept.length })}\n`)
