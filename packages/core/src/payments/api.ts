/** `FileService.payments`: the contract (its operations are in `payments.ts`). */

import type {
  Actor,
  CallOptions,
  PaymentCidRecord,
  PaymentInstructionRecord,
  PaymentPayload,
  PaymentRequirement,
  PaymentSettlement,
} from '@pinfold/interface'
import type { ListResult } from '../common/api.js'
import type { PageQuery } from '../common/pagination.js'

/** A payment requirement as the client sends it: every field may be left to the server's defaults. */
export interface PaymentTermsInput {
  /** The network's USDC contract; default it. */
  asset?: string | undefined
  /** Default `PaymentSettings.defaultPayTo`. */
  payTo?: string | undefined
  /** x402 v1 name or CAIP-2 id of a configured network; default `PaymentSettings.defaultNetwork`. */
  network?: string | undefined
  /** Atomic units (an integer or its decimal text); default `PaymentSettings.defaultAmount`. */
  amount?: string | number | undefined
  description?: string | null | undefined
}

export interface PaymentInstructionInput {
  name?: string | undefined
  description?: string | null | undefined
  /** 1 to 10 requirements. Omitted on create: one requirement made of the server's defaults. */
  paymentRequirements?: readonly PaymentTermsInput[] | undefined
}

export interface PaymentInstructionListQuery extends PageQuery {
  cid?: string | undefined
  namePrefix?: string | undefined
  id?: string | undefined
}

export interface PaymentInstructionListResult extends ListResult {
  paymentInstructions: PaymentInstructionRecord[]
}

export interface PaymentCidListResult extends ListResult {
  cids: string[]
}

/** The client's payment, decoded by the transport against the requirements offered, and the one it pays. */
export interface PaymentChoice {
  payment: PaymentPayload
  /** One of the `offers` passed to `readPayment` (the same object). */
  requirement: PaymentRequirement
}

export interface RetrievePrivateOptions extends CallOptions {
  /** Absolute URL of this request: the x402 `resource`. */
  resourceUrl: string
  /** Absolute base URL of the API (with any mount prefix); the download link points under it. */
  publicUrl: string
  /**
   * Reads the payment the client sent, if any, against the requirements offered. Returns
   * `undefined` when there is none. Throws `INVALID_INPUT` when it is malformed, and
   * `PAYMENT_REQUIRED` (with `details.reason`) when it pays for terms that were not offered.
   */
  readPayment(offers: readonly PaymentRequirement[]): PaymentChoice | undefined
}

export type RetrievePrivateResult =
  | {
      paid: false
      /** Every way to pay, for the 402 challenge. */
      requirements: PaymentRequirement[]
      /** Why the payment sent was refused (an x402 reason code); absent when none was sent. */
      reason?: string | undefined
    }
  | {
      paid: true
      /** A short-lived private download link for the CID's bytes. */
      url: string
      settlement: PaymentSettlement
      x402Version: 1 | 2
    }

/**
 * x402 pay-per-request: tenants' payment instructions (the management operations need the
 * `paymentInstructions` feature only where they read the payment settings) and the anonymous paid
 * retrieval of a CID attached to one (`paidRetrieval`).
 */
export interface PaymentOperations {
  /**
   * Creates an instruction; its requirements' gaps are filled from the payment settings.
   * `INVALID_INPUT`: a bad name, description or requirement (a network not configured, another
   * asset than its USDC, no pay-to address). `UNAVAILABLE` without payment settings.
   */
  create(actor: Actor, input: PaymentInstructionInput, options?: CallOptions): Promise<PaymentInstructionRecord>

  /** The tenant's instruction with this id. `NOT_FOUND`. */
  get(actor: Actor, id: string, options?: CallOptions): Promise<PaymentInstructionRecord>

  /** A page of the tenant's instructions, filtered. `INVALID_INPUT`: a bad limit or page token. */
  list(actor: Actor, query?: PaymentInstructionListQuery, options?: CallOptions): Promise<PaymentInstructionListResult>

  /**
   * Changes an instruction's name, description or requirements (a new version). `INVALID_INPUT`:
   * nothing to update, or bad values as for {@link create}. `NOT_FOUND`. `UNAVAILABLE` when new
   * requirements are given without payment settings.
   */
  update(
    actor: Actor,
    id: string,
    input: PaymentInstructionInput,
    options?: CallOptions,
  ): Promise<PaymentInstructionRecord>

  /** Deletes an instruction. `NOT_FOUND`. `CONFLICT` while CIDs are attached: detach them first. */
  delete(actor: Actor, id: string, options?: CallOptions): Promise<void>

  /** A page of the CIDs attached to the instruction (20 by default). `NOT_FOUND`. */
  listCids(actor: Actor, id: string, query?: PageQuery, options?: CallOptions): Promise<PaymentCidListResult>

  /**
   * Attaches a CID the tenant holds (on either network) to the instruction; a CID is priced by one
   * instruction per tenant. `INVALID_INPUT`: not a CID. `NOT_FOUND`: no such instruction or held CID.
   * `CONFLICT`: another instruction of the tenant prices it.
   */
  addCid(actor: Actor, id: string, cid: string, options?: CallOptions): Promise<PaymentCidRecord>

  /** Detaches a CID from the instruction. `NOT_FOUND`: no such instruction, or the CID is not on it. */
  removeCid(actor: Actor, id: string, cid: string, options?: CallOptions): Promise<void>

  /**
   * `GET /v1/retrieve/private/{cid}`: no tenant, the payment is the credential. Offers the pricing
   * instruction's requirements, verifies the payment, claims its `(payer, nonce)` (a replay is
   * refused), settles it and signs a short-lived download link. A refused payment is a result
   * (`paid: false` with the reason), not an error. `NOT_FOUND`: no instruction prices the CID.
   * `INVALID_INPUT`: a malformed payment. `UNAVAILABLE`: the facilitator cannot be reached (then no
   * nonce is burned), the instruction names no network still configured, or the feature is off.
   */
  retrievePrivate(cid: string, options: RetrievePrivateOptions): Promise<RetrievePrivateResult>
}
