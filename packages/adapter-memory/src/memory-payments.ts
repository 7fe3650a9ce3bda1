import {
  type PaymentCidRecord,
  type PaymentInstructionRecord,
  type PaymentRecordStore,
  PinfoldError,
  type PricedCid,
  throwIfAborted,
} from '@pinfold/interface'
import { paginate } from './memory-paging.js'
import type { MemoryState } from './memory-state.js'

/** Claims are forgotten this long after their authorization expired (no verifier accepts it by then). */
const NONCE_RETENTION_MS = 60 * 60 * 1000
const PRUNE_EVERY_MS = 60 * 1000

const copyInstruction = (i: PaymentInstructionRecord): PaymentInstructionRecord => ({
  ...i,
  paymentRequirements: i.paymentRequirements.map((terms) => ({ ...terms })),
})

export function memoryPaymentRecords(state: MemoryState): PaymentRecordStore {
  const instructions = new Map<string, PaymentInstructionRecord>()
  /** `${tenantId}\n${cid}` → the attachment: a CID prices at most one instruction per tenant. */
  const attachments = new Map<string, PaymentCidRecord & { tenantId: string }>()
  /** `${payer}\n${nonce}` → expiry (ms). */
  const nonces = new Map<string, number>()
  let lastPrune = Date.now()

  const visible = (tenantId: string, id: string) => {
    const instruction = instructions.get(id)
    return instruction && instruction.tenantId === tenantId ? instruction : undefined
  }
  const holdsCid = (tenantId: string, cid: string) =>
    [...state.files.values()].some((f) => f.tenantId === tenantId && f.cid === cid)
  const cidsOf = (instructionId: string) => [...attachments.values()].filter((a) => a.instructionId === instructionId)
  const toCid = ({ instructionId, cid, createdAt }: PaymentCidRecord): PaymentCidRecord => ({
    instructionId,
    cid,
    createdAt,
  })

  return {
    async createPaymentInstruction(instruction, options) {
      throwIfAborted(options?.signal)
      if (instructions.has(instruction.id)) {
        throw new PinfoldError('CONFLICT', `payment instruction id ${instruction.id} already exists`)
      }
      state.appendEvents(options?.events)
      instructions.set(instruction.id, copyInstruction(instruction))
      return copyInstruction(instruction)
    },

    async getPaymentInstruction(tenantId, id, options) {
      throwIfAborted(options?.signal)
      const instruction = visible(tenantId, id)
      return instruction && copyInstruction(instruction)
    },

    async listPaymentInstructions(tenantId, filter, page, options) {
      throwIfAborted(options?.signal)
      const pricedBy =
        filter.cid === undefined ? undefined : attachments.get(`${tenantId}\n${filter.cid}`)?.instructionId
      const matching = [...instructions.values()].filter(
        (i) =>
          i.tenantId === tenantId &&
          (filter.id === undefined || i.id === filter.id) &&
          (filter.namePrefix === undefined || i.name.startsWith(filter.namePrefix)) &&
          (filter.cid === undefined || i.id === pricedBy),
      )
      return paginate(matching, page, copyInstruction)
    },

    async updatePaymentInstruction(tenantId, id, patch, options) {
      throwIfAborted(options?.signal)
      const instruction = visible(tenantId, id)
      if (!instruction) return undefined
      state.appendEvents(options?.events)
      if (patch.name !== undefined) instruction.name = patch.name
      if (patch.description !== undefined) instruction.description = patch.description
      if (patch.paymentRequirements !== undefined) {
        instruction.paymentRequirements = patch.paymentRequirements.map((terms) => ({ ...terms }))
      }
      instruction.version += 1
      return copyInstruction(instruction)
    },

    async deletePaymentInstruction(tenantId, id, options) {
      throwIfAborted(options?.signal)
      if (!visible(tenantId, id)) return false
      if (cidsOf(id).length > 0) {
        throw new PinfoldError('CONFLICT', 'the payment instruction still has CIDs attached; remove them first')
      }
      state.appendEvents(options?.events)
      instructions.delete(id)
      return true
    },

    async attachPaymentCid(tenantId, instructionId, cid, attachedAt, options) {
      throwIfAborted(options?.signal)
      if (!visible(tenantId, instructionId)) throw new PinfoldError('NOT_FOUND', 'payment instruction not found')
      const key = `${tenantId}\n${cid}`
      const existing = attachments.get(key)
      if (existing?.instructionId === instructionId) return toCid(existing)
      if (existing) throw new PinfoldError('CONFLICT', `CID ${cid} is already attached to another payment instruction`)
      if (!holdsCid(tenantId, cid)) throw new PinfoldError('NOT_FOUND', `no file with CID ${cid} found`)
      const record = { tenantId, instructionId, cid, createdAt: attachedAt }
      state.appendEvents(options?.events)
      attachments.set(key, record)
      return toCid(record)
    },

    async detachPaymentCid(tenantId, instructionId, cid, options) {
      throwIfAborted(options?.signal)
      const key = `${tenantId}\n${cid}`
      if (attachments.get(key)?.instructionId !== instructionId) return false
      state.appendEvents(options?.events)
      attachments.delete(key)
      return true
    },

    async listPaymentCids(tenantId, instructionId, page, options) {
      throwIfAborted(options?.signal)
      if (!visible(tenantId, instructionId)) return undefined
      const keyed = cidsOf(instructionId).map((a) => ({ ...toCid(a), id: a.cid }))
      return paginate(keyed, page, toCid)
    },

    async findPricedCid(cid, options): Promise<PricedCid | undefined> {
      throwIfAborted(options?.signal)
      const candidates = [...attachments.values()]
        .filter((a) => a.cid === cid && holdsCid(a.tenantId, cid))
        .sort(
          (a, b) =>
            a.createdAt.getTime() - b.createdAt.getTime() ||
            (a.instructionId < b.instructionId ? -1 : a.instructionId > b.instructionId ? 1 : 0),
        )
      const first = candidates[0]
      const instruction = first && instructions.get(first.instructionId)
      return instruction && { instruction: copyInstruction(instruction), attachedAt: first.createdAt }
    },

    async claimPaymentNonce(payer, nonce, expiresAt, options) {
      throwIfAborted(options?.signal)
      const now = Date.now()
      if (now - lastPrune > PRUNE_EVERY_MS) {
        lastPrune = now
        for (const [k, expiry] of nonces) if (expiry + NONCE_RETENTION_MS < now) nonces.delete(k)
      }
      // Check and set with no await in between: run-to-completion makes exactly one caller win.
      const key = `${payer}\n${nonce}`
      if (nonces.has(key)) return 'duplicate'
      nonces.set(key, expiresAt.getTime())
      return 'claimed'
    },
  }
}
