import { type EventRecord, type EventRecordStore, invalid, type NewEvent, throwIfAborted } from '@pinfold/interface'
import type { MemoryState } from './memory-state.js'

/** An event as the memory store keeps it: `fannedOut` is the webhooks' mark (the `fanned_out` column). */
export interface StoredEvent {
  record: EventRecord
  fannedOut: boolean
}

/** The same rules as the PostgreSQL table's constraints, so a malformed event fails on both. */
const EVENT_TYPE = /^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/
const ACTOR_KINDS = new Set(['user', 'key', 'operator', 'system'])

function checkEvent(event: NewEvent): void {
  if (!EVENT_TYPE.test(event.type)) throw invalid('malformed event')
  if (!ACTOR_KINDS.has(event.actor.kind)) throw invalid('malformed event')
}

function copyEvent(record: EventRecord): EventRecord {
  return structuredClone(record)
}

/**
 * The memory log and the one way every write appends to it: call it after the write's checks and
 * before its first change. It checks every event first, so it appends all or throws having changed
 * nothing; the write's changes that follow cannot fail (they are plain Map updates), so the entry and
 * its change go together.
 */
export function createMemoryEventLog(): {
  events: StoredEvent[]
  appendEvents(events: readonly NewEvent[] | undefined): EventRecord[]
} {
  const events: StoredEvent[] = []
  let seq = 0
  return {
    events,
    appendEvents(given) {
      if (!given || given.length === 0) return []
      for (const event of given) checkEvent(event)
      const at = new Date()
      return given.map((event) => {
        const record: EventRecord = { ...structuredClone(event), id: crypto.randomUUID(), seq: ++seq, at }
        events.push({ record, fannedOut: false })
        return copyEvent(record)
      })
    },
  }
}

export function memoryEventRecords(state: MemoryState): EventRecordStore {
  return {
    async appendEvents(events, options) {
      throwIfAborted(options?.signal)
      return state.appendEvents(events)
    },

    async listEvents(filter, page, options) {
      throwIfAborted(options?.signal)
      const types = filter.types && filter.types.length > 0 ? new Set(filter.types) : undefined
      const matching = state.events
        .map(({ record }) => record)
        .filter(
          (event) =>
            (filter.tenantId === undefined || event.tenantId === filter.tenantId) &&
            (!types || types.has(event.type)) &&
            (!filter.from || event.at >= filter.from) &&
            (!filter.to || event.at < filter.to) &&
            (page.afterSeq === undefined ||
              (page.order === 'asc' ? event.seq > page.afterSeq : event.seq < page.afterSeq)),
        )
      if (page.order !== 'asc') matching.reverse()
      return { items: matching.slice(0, page.limit).map(copyEvent), hasMore: matching.length > page.limit }
    },

    async pruneEvents(before, limit, options) {
      throwIfAborted(options?.signal)
      const old = state.events
        .filter(({ record }) => record.at < before)
        .sort((a, b) => a.record.at.getTime() - b.record.at.getTime())
        .slice(0, limit)
      const gone = new Set(old)
      const kept = state.events.filter((event) => !gone.has(event))
      state.events.splice(0, state.events.length, ...kept)
      return gone.size
    },
  }
}
