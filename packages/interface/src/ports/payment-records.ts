/**
 * Records of x402 pay-per-request: payment instructions (what a tenant charges and where the money
 * goes), the CIDs attached to them, and the claimed payment nonces that stop one signed payment from
 * unlocking more than one request.
 */

import type { CallOptions } from '../call-options.js'
import type { Page, PageRequest } from '../model.js'
import type { RecordedOptions } from './event-records.js'

/**
 * One way to pay, as the tenant configured it. `amount` is in the token's atomic units (USDC has 6
 * decimals: `"100"` is 0.0001 USD). `network` is an x402 v1 name (`base-sepolia`) or a CAIP-2 id
 * (`eip155:84532`), kept as the tenant wrote it.
 */
export interface PaymentTerms {
  asset: `0x${string}`
  payTo: `0x${string}`
  network: string
  amount: string
  description?: string | undefined
}

export interface PaymentInstructionRecord {
  id: string
  tenantId: string
  /** 1 when created; every update adds 1. */
  version: number
  paymentRequirements: PaymentTerms[]
  name: string
  description: string | null
  createdAt: Date
}

export interface PaymentInstructionFilter {
  /** Only the instruction this CID is attached to. */
  cid?: string | undefined
  /** Prefix of the name. */
  namePrefix?: string | undefined
  id?: string | undefined
}

export interface PaymentInstructionPatch {
  name?: string
  description?: string | null
  paymentRequirements?: PaymentTerms[]
}

/** A CID attached to a payment instruction. */
export interface PaymentCidRecord {
  instructionId: string
  cid: string
  createdAt: Date
}

/** The instruction that prices a CID for anonymous buyers, and when that CID was attached to it. */
export interface PricedCid {
  instruction: PaymentInstructionRecord
  attachedAt: Date
}

/**
 * Payment instructions are tenant-scoped (no network): another tenant's instruction is treated
 * exactly like a missing one.
 */
export interface PaymentRecordStore {
  /** Stores a new instruction (version as given, normally 1); reusing an id is a `CONFLICT`. */
  createPaymentInstruction(
    instruction: PaymentInstructionRecord,
    options?: RecordedOptions,
  ): Promise<PaymentInstructionRecord>

  getPaymentInstruction(
    tenantId: string,
    id: string,
    options?: CallOptions,
  ): Promise<PaymentInstructionRecord | undefined>

  /** Keyset page ordered by `(createdAt, id)` like `listFiles`; filters combine with AND. */
  listPaymentInstructions(
    tenantId: string,
    filter: PaymentInstructionFilter,
    page: PageRequest,
    options?: CallOptions,
  ): Promise<Page<PaymentInstructionRecord>>

  /**
   * Applies a patch and adds 1 to `version` in the same atomic step (concurrent updates each get
   * their own version). `undefined` when the instruction does not exist for this tenant.
   */
  updatePaymentInstruction(
    tenantId: string,
    id: string,
    patch: PaymentInstructionPatch,
    options?: RecordedOptions,
  ): Promise<PaymentInstructionRecord | undefined>

  /**
   * Deletes an instruction. `false` when absent. While any CID is attached it throws `CONFLICT` and
   * deletes nothing; this is atomic with `attachPaymentCid`: a concurrent attach either lands first
   * (and the delete refuses) or fails with `NOT_FOUND` after the delete.
   */
  deletePaymentInstruction(tenantId: string, id: string, options?: RecordedOptions): Promise<boolean>

  /**
   * Attaches a CID to an instruction of the tenant. Idempotent: attaching it again returns the
   * existing attachment unchanged.
   * - `NOT_FOUND` when the instruction does not exist for this tenant, or when the tenant holds no
   *   file with this CID (on either network); nothing is written.
   * - A CID prices at most one instruction per tenant: when it is attached to another instruction
   *   of the tenant, `CONFLICT` (concurrent attaches of one CID to two instructions: exactly one wins).
   */
  attachPaymentCid(
    tenantId: string,
    instructionId: string,
    cid: string,
    attachedAt: Date,
    options?: RecordedOptions,
  ): Promise<PaymentCidRecord>

  /** Removes an attachment; `false` when the CID was not attached to this tenant's instruction. */
  detachPaymentCid(tenantId: string, instructionId: string, cid: string, options?: RecordedOptions): Promise<boolean>

  /**
   * The CIDs of one instruction, a keyset page ordered by `(createdAt, cid)`; the cursor's `id` is
   * the CID. `undefined` when the instruction does not exist for this tenant.
   */
  listPaymentCids(
    tenantId: string,
    instructionId: string,
    page: PageRequest,
    options?: CallOptions,
  ): Promise<Page<PaymentCidRecord> | undefined>

  /**
   * Across tenants: the instruction that prices `cid` for the anonymous pay-per-request endpoint.
   * Only attachments whose tenant still holds a file with this CID count (a tenant that deleted its
   * file must not sell another tenant's copy). When several tenants qualify, the oldest attachment
   * wins, ties broken by instruction id, so every server process picks the same one.
   */
  findPricedCid(cid: string, options?: CallOptions): Promise<PricedCid | undefined>

  /**
   * Records that the payment `(payer, nonce)` has been used. Exactly one of any number of concurrent
   * callers (across processes) gets `'claimed'`; every other call, then or later, gets `'duplicate'`.
   * Keys are compared exactly: callers normalise them (core lowercases both). The claim may be
   * forgotten once `expiresAt` (the authorization's `validBefore`) is well past, because no verifier
   * accepts an expired authorization.
   */
  claimPaymentNonce(
    payer: string,
    nonce: string,
    expiresAt: Date,
    options?: CallOptions,
  ): Promise<'claimed' | 'duplicate'>
}
