import { describe, expect, it } from 'vitest'
import { type ActionState, runAction } from '../src/components/use-action.js'

/** An action's state as the calls made to it, in order. */
function recorder() {
  const calls: [string, unknown][] = []
  const state: ActionState = {
    setBusy: (busy) => calls.push(['busy', busy]),
    setError: (error) => calls.push(['error', error]),
    setDone: (message) => calls.push(['done', message]),
  }
  return { calls, state }
}

describe('runAction', () => {
  it('is busy while the action runs, the last outcome cleared first, and keeps what the action said', async () => {
    const { calls, state } = recorder()
    let busyDuring: unknown
    await runAction(state, async () => {
      busyDuring = calls.findLast(([name]) => name === 'busy')?.[1]
      state.setDone('Saved.')
    })
    expect(busyDuring).toBe(true)
    expect(calls).toEqual([
      ['busy', true],
      ['error', null],
      ['done', null],
      ['done', 'Saved.'],
      ['busy', false],
    ])
  })

  it('keeps a failure to be shown, and is no longer busy after it', async () => {
    const { calls, state } = recorder()
    const failure = new Error('tenant acme exists already')
    await expect(
      runAction(state, async () => {
        throw failure
      }),
    ).resolves.toBeUndefined()
    expect(calls).toEqual([
      ['busy', true],
      ['error', null],
      ['done', null],
      ['error', failure],
      ['busy', false],
    ])
  })
})
