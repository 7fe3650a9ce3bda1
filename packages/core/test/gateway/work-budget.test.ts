import { describe, expect, it } from 'vitest'
import { workBudget } from '../../src/gateway/work-budget.js'

/** A clock the test moves: each read "takes" `perRead` ms. */
function slowReads(perRead: number) {
  const clock = { t: 0, now: () => clock.t }
  const read = async () => {
    clock.t += perRead
  }
  return { clock, read }
}

describe('work budget', () => {
  it('time - slow reads that earn nothing end the walk once their time is spent, long before the read count', async () => {
    const { clock, read } = slowReads(10) // a database round trip per block read
    const budget = workBudget({ size: 7000 }, clock)
    let reads = 0
    await expect(
      (async () => {
        for (;;) {
          await budget.read(read)
          reads++
        }
      })(),
    ).rejects.toMatchObject({ code: 'UNPROCESSABLE' })
    // 1 s + 7000 bytes / 1024 per ms ≈ 1007 ms of reads: about 101 reads of 10 ms, not 4096
    expect(reads).toBeGreaterThan(95)
    expect(reads).toBeLessThan(110)
    expect(clock.t).toBeLessThan(1100)
  })

  it('time - delivered leaf bytes earn time, so an honest slow file streams whole', async () => {
    const { clock, read } = slowReads(10)
    const budget = workBudget({ size: 0 }, clock)
    for (let i = 0; i < 1000; i++) {
      await budget.read(read)
      budget.earn(256 * 1024) // a 256 KiB leaf per read: 64 ms earned per 10 ms spent
    }
    expect(clock.t).toBe(10_000)
  })

  it('time - only the time inside reads counts: pauses between them (a slow client) cost nothing', async () => {
    const clock = { t: 0, now: () => clock.t }
    const budget = workBudget({ size: 0 }, clock)
    for (let i = 0; i < 100; i++) {
      await budget.read(async () => {})
      clock.t += 1000 // the client takes a second before asking for more
    }
  })

  it('reads - fast reads that earn nothing end at the read allowance', async () => {
    const budget = workBudget({ size: 0 }, { now: () => 0 })
    let reads = 0
    await expect(
      (async () => {
        for (;;) {
          await budget.read(async () => {})
          reads++
        }
      })(),
    ).rejects.toMatchObject({ code: 'UNPROCESSABLE' })
    expect(reads).toBe(4096)
  })
})
