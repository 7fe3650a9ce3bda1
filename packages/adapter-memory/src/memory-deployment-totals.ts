import {
  type DeploymentTotalsRecordStore,
  type PinRequestRecord,
  type PinRequestState,
  type PinStateTotal,
  throwIfAborted,
} from '@pinfold/interface'
import type { MemoryState } from './memory-state.js'

const PIN_STATES: readonly PinRequestState[] = ['queued', 'retrieving', 'pinned', 'failed']

/** Sums over the shared state and the pin queue's Map, as PostgreSQL's aggregates do over its tables. */
export function memoryDeploymentTotals(
  state: MemoryState,
  pinRequests: ReadonlyMap<string, PinRequestRecord>,
): DeploymentTotalsRecordStore {
  return {
    async storedTotals(options) {
      throwIfAborted(options?.signal)
      let logicalBytes = 0
      for (const file of state.files.values()) logicalBytes += file.size
      let physicalBytes = 0
      for (const content of state.contents.values()) physicalBytes += content.size
      let blocks = 0
      for (const entries of state.blocks.values()) blocks += entries.size
      return { files: state.files.size, logicalBytes, contents: state.contents.size, physicalBytes, blocks }
    },

    async pinStateTotals(options) {
      throwIfAborted(options?.signal)
      const totals = new Map<PinRequestState, PinStateTotal>(
        PIN_STATES.map((s) => [s, { state: s, count: 0, oldestCreatedAt: undefined }]),
      )
      for (const request of pinRequests.values()) {
        const total = totals.get(request.state)!
        total.count++
        if (!total.oldestCreatedAt || request.createdAt < total.oldestCreatedAt) {
          total.oldestCreatedAt = new Date(request.createdAt)
        }
      }
      return [...totals.values()]
    },
  }
}
