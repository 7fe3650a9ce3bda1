import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'

const child = fileURLToPath(new URL('./support/young-generation-child.ts', import.meta.url))

/** The child's young generation (MB): at start, after survivors piled up held, and after more released. */
async function youngGeneration(nodeArgs: string[] = []) {
  const { stdout } = await promisify(execFile)(process.execPath, [...nodeArgs, '--import', 'tsx', child])
  return JSON.parse(stdout) as { initial: number; held: number; released: number }
}

// a child process: V8's flags are process-wide, and this worker's young generation has grown already
describe.concurrent('holdYoungGeneration', () => {
  it('keeps the young generation at its initial size while start-up survivors pile up, then lets it grow', async () => {
    const { initial, held, released } = await youngGeneration()
    expect(held).toBe(initial)
    expect(released).toBeGreaterThanOrEqual(4 * initial)
  })

  it('leaves the growth alone when node was given the flag', async () => {
    const { initial, held } = await youngGeneration(['--semi-space-growth-factor=2'])
    expect(held).toBeGreaterThanOrEqual(4 * initial)
  })
})
