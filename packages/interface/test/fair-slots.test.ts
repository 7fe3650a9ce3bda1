import { describe, expect, it } from 'vitest'
import { createFairSlots } from '../src/index.js'

/** A task that runs until the test opens it, recording when it started. */
function gate(started: string[], name: string) {
  let open!: () => void
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return {
    open,
    task: async () => {
      started.push(name)
      await opened
      return name
    },
  }
}

const settled = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('createFairSlots', () => {
  it("run - a party holding its share is RATE_LIMITED while another party's task still runs at once", async () => {
    const slots = createFairSlots({ concurrency: 2, maxQueue: 10, maxPerParty: 3, maxRunningPerParty: 1, what: 'jobs' })
    const started: string[] = []
    const a = [1, 2, 3].map((i) => gate(started, `a${i}`))
    const runs = a.map((g) => slots.run('tenant-a', g.task))
    await expect(slots.run('tenant-a', async () => 'a4')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: 'too many jobs of this account are running or waiting (at most 3); try again shortly',
    })
    // tenant-a runs one at a time: the second slot is free for tenant-b
    expect(await slots.run('tenant-b', async () => 'b1')).toBe('b1')
    expect(started).toEqual(['a1'])
    for (const g of a) g.open()
    expect(await Promise.all(runs)).toEqual(['a1', 'a2', 'a3'])
  })

  it('stats - tasks running and waiting now, and every refusal so far', async () => {
    const slots = createFairSlots({ concurrency: 1, maxQueue: 1, maxPerParty: 2, maxRunningPerParty: 1, what: 'jobs' })
    expect(slots.stats()).toEqual({ running: 0, waiting: 0, refused: 0 })
    const started: string[] = []
    const [a1, a2] = [gate(started, 'a1'), gate(started, 'a2')]
    const runs = [slots.run('a', a1.task), slots.run('a', a2.task)]
    expect(slots.stats()).toEqual({ running: 1, waiting: 1, refused: 0 })
    await expect(slots.run('a', async () => 'a3')).rejects.toMatchObject({ code: 'RATE_LIMITED' }) // its share
    await expect(slots.run('b', async () => 'b1')).rejects.toMatchObject({ code: 'RATE_LIMITED' }) // the queue
    expect(slots.stats()).toEqual({ running: 1, waiting: 1, refused: 2 })
    a1.open()
    a2.open()
    await Promise.all(runs)
    expect(slots.stats()).toEqual({ running: 0, waiting: 0, refused: 2 })
  })

  it('run - when a slot frees, parties with tasks waiting take turns', async () => {
    const slots = createFairSlots({ concurrency: 1, maxQueue: 10, maxPerParty: 5, maxRunningPerParty: 1, what: 'jobs' })
    const started: string[] = []
    const gates = ['a1', 'a2', 'a3', 'b1', 'c1', 'b2'].map((name) => ({ name, ...gate(started, name) }))
    const runs = gates.map((g) => slots.run(g.name[0]!, g.task))
    for (const name of ['a1', 'b1', 'c1', 'a2', 'b2', 'a3']) {
      await settled()
      expect(started.at(-1)).toBe(name)
      gates.find((g) => g.name === name)!.open()
    }
    await Promise.all(runs)
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3'])
  })

  it('run - past maxQueue waiting, any party is RATE_LIMITED; a task that fails frees its slot', async () => {
    const slots = createFairSlots({ concurrency: 1, maxQueue: 1, maxPerParty: 5, maxRunningPerParty: 1, what: 'jobs' })
    const started: string[] = []
    const first = gate(started, 'a1')
    const running = slots.run('a', first.task)
    const queued = slots.run('b', async () => {
      throw new Error('boom')
    })
    await expect(slots.run('c', async () => 'c1')).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: 'too many jobs are waiting; try again shortly',
    })
    first.open()
    await running
    await expect(queued).rejects.toThrow('boom')
    expect(await slots.run('c', async () => 'c1')).toBe('c1')
  })

  it('run - a waiting task whose signal aborts leaves the queue with ABORTED and frees its place', async () => {
    const slots = createFairSlots({ concurrency: 1, maxQueue: 5, maxPerParty: 2, maxRunningPerParty: 1, what: 'jobs' })
    const started: string[] = []
    const first = gate(started, 'a1')
    const running = slots.run('a', first.task)
    const controller = new AbortController()
    const waiting = slots.run('a', async () => 'never', controller.signal)
    controller.abort()
    await expect(waiting).rejects.toMatchObject({ code: 'ABORTED' })
    const next = slots.run('a', async () => 'a3')
    first.open()
    expect(await Promise.all([running, next])).toEqual(['a1', 'a3'])
    await expect(slots.run('a', async () => 'x', AbortSignal.abort())).rejects.toMatchObject({ code: 'ABORTED' })
  })
})
