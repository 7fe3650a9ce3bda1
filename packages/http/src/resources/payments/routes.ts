import { invalid, isPinfoldError, type PaymentChoice, type PaymentRequirement } from '@pinfold/core'
import {
  decodePaymentHeader,
  encodePaymentResponseHeader,
  toV1Requirements,
  toV2Requirements,
  toV2Resource,
  X402_EXPOSED_HEADERS,
  X402_HEADERS,
} from '@pinfold/x402'
import Type, { type Static } from 'typebox'
import { base64 } from '../../bytes.js'
import { ErrorObject, jsonResponse, okData, okNull } from '../../openapi/responses.js'
import { data, json } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { pageQuery } from '../../schema.js'
import {
  instructionCidToWire,
  instructionFromWire,
  instructionToWire,
  PaymentHeaders,
  PaymentInstruction,
  PaymentInstructionCid,
  PaymentInstructionCids,
  PaymentInstructionInput,
  PaymentInstructionList,
  PaymentInstructionListQuery,
  PaymentRequired,
  pageToken,
} from './wire.js'

// ---------------------------------------------------------------------------------------------
// GET /v1/retrieve/private/{cid}: x402 v1 and v2 on one route
// ---------------------------------------------------------------------------------------------

const NO_PAYMENT = 'X-PAYMENT or PAYMENT-SIGNATURE header is required'

/**
 * Decodes `PAYMENT-SIGNATURE` (v2) or `X-PAYMENT` (v1) against the offered requirements. A v1 payment
 * names its network, which picks the requirement (an unknown one goes to the first, for the verifier
 * to refuse as `invalid_network`); a v2 payment names the requirement it accepted, which must be one
 * of those offered (else `PAYMENT_REQUIRED` with the reason).
 */
function readPayment(
  headers: Static<typeof PaymentHeaders>,
  offers: readonly PaymentRequirement[],
): PaymentChoice | undefined {
  const value = headers[X402_HEADERS.paymentSignature] ?? headers[X402_HEADERS.xPayment]
  if (value === undefined) return undefined
  let mismatch: unknown
  for (const requirement of offers) {
    try {
      const payment = decodePaymentHeader(value, requirement)
      if (payment.x402Version === 1) {
        return { payment, requirement: offers.find((offer) => offer.network === payment.network) ?? offers[0]! }
      }
      return { payment, requirement }
    } catch (err) {
      if (!isPinfoldError(err) || err.code !== 'PAYMENT_REQUIRED') throw err
      mismatch = err
    }
  }
  throw mismatch ?? invalid('x402 payment: nothing was offered')
}

/** One 402 for both client generations: the v1 JSON body and the v2 `PAYMENT-REQUIRED` header. */
function paymentRequired(offers: PaymentRequirement[], error = NO_PAYMENT): Response {
  const v2 = {
    x402Version: 2,
    error,
    resource: toV2Resource(offers[0]!),
    accepts: offers.map((offer) => toV2Requirements(offer)),
  }
  return json({ x402Version: 1, error, accepts: offers.map((offer) => toV1Requirements(offer)) }, 402, {
    [X402_HEADERS.paymentRequired]: base64(new TextEncoder().encode(JSON.stringify(v2))),
    'Access-Control-Expose-Headers': X402_EXPOSED_HEADERS,
  })
}

const base = '/v3/x402/payment_instructions'

export const paymentRoutes = [
  defineRoute({
    method: 'POST',
    path: base,
    auth: 'org:x402:write',
    summary: 'Create a payment instruction',
    tags: ['Payments'],
    request: { body: PaymentInstructionInput },
    responses: okData(PaymentInstruction),
    async handle({ service, actor, signal }, { body }) {
      return data(instructionToWire(await service.payments.create(actor, instructionFromWire(body), { signal })))
    },
  }),
  defineRoute({
    method: 'GET',
    path: base,
    auth: 'org:x402:read',
    summary: 'List payment instructions',
    tags: ['Payments'],
    request: { query: PaymentInstructionListQuery },
    responses: okData(PaymentInstructionList),
    async handle({ service, actor, signal }, { query }) {
      const { paymentInstructions, nextPageToken } = await service.payments.list(
        actor,
        {
          limit: query.limit,
          pageToken: query.pageToken,
          cid: query.cid,
          namePrefix: query.name,
          id: query.id,
        },
        { signal },
      )
      return data({ payment_instructions: paymentInstructions.map(instructionToWire), ...pageToken(nextPageToken) })
    },
  }),
  defineRoute({
    method: 'GET',
    path: `${base}/:id`,
    auth: 'org:x402:read',
    summary: 'Get a payment instruction',
    tags: ['Payments'],
    responses: okData(PaymentInstruction),
    async handle({ service, actor, signal }, { params }) {
      return data(instructionToWire(await service.payments.get(actor, params.id, { signal })))
    },
  }),
  defineRoute({
    method: 'PATCH',
    path: `${base}/:id`,
    auth: 'org:x402:write',
    summary: 'Update a payment instruction',
    tags: ['Payments'],
    request: { body: PaymentInstructionInput },
    responses: okData(PaymentInstruction),
    async handle({ service, actor, signal }, { params, body }) {
      return data(
        instructionToWire(await service.payments.update(actor, params.id, instructionFromWire(body), { signal })),
      )
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: `${base}/:id`,
    auth: 'org:x402:write',
    summary: 'Delete a payment instruction (409 while CIDs are attached)',
    tags: ['Payments'],
    responses: { ...okNull('Deleted'), '409': jsonResponse('CIDs are still attached', ErrorObject) },
    async handle({ service, actor, signal }, { params }) {
      await service.payments.delete(actor, params.id, { signal })
      return data(null)
    },
  }),
  defineRoute({
    method: 'GET',
    path: `${base}/:id/cids`,
    auth: 'org:x402:read',
    summary: 'List the CIDs of a payment instruction',
    tags: ['Payments'],
    request: { query: Type.Object(pageQuery) },
    responses: okData(PaymentInstructionCids),
    async handle({ service, actor, signal }, { params, query }) {
      const { cids, nextPageToken } = await service.payments.listCids(
        actor,
        params.id,
        {
          limit: query.limit,
          pageToken: query.pageToken,
        },
        { signal },
      )
      return data({ cids, ...pageToken(nextPageToken) })
    },
  }),
  defineRoute({
    method: 'PUT',
    path: `${base}/:id/cids/:cid`,
    auth: 'org:x402:write',
    summary: 'Attach a CID to a payment instruction',
    tags: ['Payments'],
    responses: okData(PaymentInstructionCid),
    async handle({ service, actor, signal }, { params }) {
      const attached = await service.payments.addCid(actor, params.id, params.cid, { signal })
      return data(instructionCidToWire(attached))
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: `${base}/:id/cids/:cid`,
    auth: 'org:x402:write',
    summary: 'Remove a CID from a payment instruction',
    tags: ['Payments'],
    responses: okData(Type.Object({}, { maxProperties: 0 }), 'Removed'),
    async handle({ service, actor, signal }, { params }) {
      await service.payments.removeCid(actor, params.id, params.cid, { signal })
      return data({})
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/v1/retrieve/private/:cid',
    auth: 'public',
    summary: 'Pay per request (x402) for a private download link',
    tags: ['Payments'],
    description: 'x402 v1 (`X-PAYMENT`) and v2 (`PAYMENT-SIGNATURE`); the payment is the only credential.',
    request: { headers: PaymentHeaders },
    responses: {
      '200': jsonResponse(
        'Paid: a short-lived signed download link (not wrapped in `data`)',
        Type.Object({ url: Type.String({ format: 'uri' }) }),
      ),
      '402': jsonResponse('Payment required: the terms', PaymentRequired),
    },
    /** Paid with the payment as the only credential; the answer is `{url}`, not wrapped in `data`. */
    async handle({ service, publicUrl, signal }, { params, headers }) {
      const { cid } = params
      const result = await service.payments.retrievePrivate(cid, {
        resourceUrl: `${publicUrl}/v1/retrieve/private/${encodeURIComponent(cid)}`,
        publicUrl,
        signal,
        readPayment: (offers) => readPayment(headers, offers),
      })
      if (!result.paid) return paymentRequired(result.requirements, result.reason)
      const { name, value } = encodePaymentResponseHeader(result.settlement, result.x402Version)
      return json({ url: result.url }, 200, {
        [name]: value,
        'Cache-Control': 'no-store',
        'Access-Control-Expose-Headers': X402_EXPOSED_HEADERS,
      })
    },
  }),
]
