import type {
  PaymentInstructionInput as InstructionInput,
  PaymentCidRecord,
  PaymentInstructionRecord,
} from '@pinfold/core'
import { X402_HEADERS } from '@pinfold/x402'
import Type, { type Static } from 'typebox'
import { DateTime, Hex, named, pageQuery } from '../../schema.js'

export const PaymentRequirement = named(
  'PaymentRequirement',
  Type.Object({
    asset: Hex,
    pay_to: Hex,
    network: Type.String(),
    amount: Type.String({ description: 'Atomic units of the asset' }),
    description: Type.Optional(Type.String()),
  }),
)

export const PaymentInstruction = named(
  'PaymentInstruction',
  Type.Object({
    id: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    payment_requirements: Type.Array(PaymentRequirement),
    name: Type.String(),
    description: Type.Optional(Type.String()),
    created_at: DateTime,
  }),
)

export const PaymentInstructionList = named(
  'PaymentInstructionList',
  Type.Object({
    payment_instructions: Type.Array(PaymentInstruction),
    next_page_token: Type.Optional(Type.String({ description: 'Absent on the last page' })),
  }),
)

export const PaymentInstructionListQuery = Type.Object({
  ...pageQuery,
  cid: Type.Optional(Type.String({ description: 'Instructions attached to this CID' })),
  name: Type.Optional(Type.String({ description: 'Name prefix' })),
  id: Type.Optional(Type.String()),
})

export const PaymentInstructionCids = named(
  'PaymentInstructionCids',
  Type.Object({ cids: Type.Array(Type.String()), next_page_token: Type.Optional(Type.String()) }),
)

export const PaymentInstructionCid = named(
  'PaymentInstructionCid',
  Type.Object({ payment_instruction_id: Type.String(), cid: Type.String(), created_at: DateTime }),
)

export const PaymentRequired = named(
  'PaymentRequired',
  Type.Object(
    { x402Version: Type.Literal(1), error: Type.String(), accepts: Type.Array(Type.Object({})) },
    { description: 'x402 v1 body; the v2 requirements are in the base64 `PAYMENT-REQUIRED` header' },
  ),
)

/** The two spellings of a payment: x402 v2 and v1. */
export const PaymentHeaders = Type.Object({
  [X402_HEADERS.paymentSignature]: Type.Optional(Type.String({ description: 'x402 v2 payment (base64)' })),
  [X402_HEADERS.xPayment]: Type.Optional(Type.String({ description: 'x402 v1 payment (base64)' })),
})

export function instructionToWire(instruction: PaymentInstructionRecord): Static<typeof PaymentInstruction> {
  return {
    id: instruction.id,
    version: instruction.version,
    payment_requirements: instruction.paymentRequirements.map((terms) => ({
      asset: terms.asset,
      pay_to: terms.payTo,
      network: terms.network,
      amount: terms.amount,
      ...(terms.description === undefined ? {} : { description: terms.description }),
    })),
    name: instruction.name,
    ...(instruction.description === null ? {} : { description: instruction.description }),
    created_at: instruction.createdAt.toISOString(),
  }
}

/** A requirement as a client gives it: what it leaves out, the server's defaults fill in. */
const PaymentRequirementInput = named(
  'PaymentRequirementInput',
  Type.Object({
    network: Type.Optional(Type.String({ description: 'A configured network, e.g. base-sepolia; default the first' })),
    asset: Type.Optional(Type.String({ description: "The network's USDC contract (the default)" })),
    pay_to: Type.Optional(Type.String({ description: '0x address paid; default the configured one' })),
    amount: Type.Optional(
      Type.Union([Type.String(), Type.Integer()], { description: 'Atomic units of the asset, e.g. "10000"' }),
    ),
    description: Type.Optional(Type.String()),
  }),
)

export const PaymentInstructionInput = named(
  'PaymentInstructionInput',
  Type.Object({
    name: Type.Optional(Type.String({ description: 'Required to create' })),
    description: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    payment_requirements: Type.Optional(
      Type.Array(PaymentRequirementInput, { description: "Default: one requirement of the server's defaults" }),
    ),
  }),
)

/** snake_case requirement objects → core's input. */
export function instructionFromWire(body: Static<typeof PaymentInstructionInput>): InstructionInput {
  return {
    name: body.name,
    description: body.description,
    paymentRequirements: body.payment_requirements?.map((r) => ({
      asset: r.asset,
      payTo: r.pay_to,
      network: r.network,
      amount: r.amount,
      description: r.description,
    })),
  }
}

/** `next_page_token` is left out on the last page, as Pinata's x402 endpoints do. */
export const pageToken = (token: string) => (token === '' ? {} : { next_page_token: token })

export function instructionCidToWire(attached: PaymentCidRecord): Static<typeof PaymentInstructionCid> {
  return {
    payment_instruction_id: attached.instructionId,
    cid: attached.cid,
    created_at: attached.createdAt.toISOString(),
  }
}
