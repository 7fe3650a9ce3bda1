import type { RecordStore } from '@pinfold/interface'
import { memoryApiKeyRecords } from './memory-api-keys.js'
import { memoryBlockRecords } from './memory-blocks.js'
import { memoryFileRecords } from './memory-files.js'
import { memoryGatewayRecords } from './memory-gateway.js'
import { memoryGroupRecords } from './memory-groups.js'
import { memoryPaymentRecords } from './memory-payments.js'
import { memoryPinRequestRecords } from './memory-pin-requests.js'
import { createMemoryState } from './memory-state.js'
import { memoryUploadSessionRecords } from './memory-upload-sessions.js'
import { memoryUsageRecords } from './memory-usage.js'
import { memoryVectorRecords } from './memory-vectors.js'

/**
 * Every record in Maps. Each method does all its checks and writes synchronously after its first
 * await point, so JavaScript's run-to-completion gives the port's "exactly one" race contracts
 * without locks — the same guarantees Postgres gets from row locks and unique constraints.
 * Records are copied in and out so callers can never mutate stored state by accident.
 */
export function createMemoryRecordStore(): RecordStore {
  const state = createMemoryState()
  return {
    ...memoryFileRecords(state),
    ...memoryGroupRecords(state),
    ...memoryGatewayRecords(state),
    ...memoryBlockRecords(state),
    ...memoryVectorRecords(state),
    ...memoryPaymentRecords(state),
    ...memoryUploadSessionRecords(),
    ...memoryApiKeyRecords(),
    ...memoryUsageRecords(state),
    ...memoryPinRequestRecords(),
  }
}
