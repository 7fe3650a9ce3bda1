import {
  invalid,
  isPinfoldError,
  type PaymentChoice,
  type PaymentInstructionRecord,
  type PaymentRequirement,
  type PaymentTermsInput,
} from '@pinfold/core'
import {
  decodePaymentHeader,
  encodePaymentResponseHeader,
  toV1Requirements,
  toV2Requirements,
  toV2Resource,
  X402_EXPOSED_HEADERS,
  X402_HEADERS,
} from '@pinfold/x402'
import { readJsonObject } from '../body.js'
import { base64 } from '../bytes.js'
import { jsonBody, jsonResponse, okData, okNull, pageParams, query, ref } from '../openapi/schemas.js'
import { data, json } from '../responses.js'
import type { RequestContext, Route } from '../router.js'
import { parseLimit } from '../wire.js'

// ---------------------------------------------------------------------------------------------
// Wire shapes
// ---------------------------------------------------------------------------------------------

function instructionToWire(instruction: PaymentInstructionRecord) {
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

/** snake_case requirement objects → core's input; anything that is not a list is left for core to refuse. */
function parseRequirements(value: unknown): PaymentTermsInput[] | unknown {
  if (!Array.isArray(value)) return value
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) return item
    const r = item as Record<string, unknown>
    return { asset: r.asset, payTo: r.pay_to, network: r.network, amount: r.amount, description: r.description }
  })
}

/** `next_page_token` is left out on the last page, as Pinata's x402 endpoints do. */
const pageToken = (token: string) => (token === '' ? {} : { next_page_token: token })

// ---------------------------------------------------------------------------------------------
// Payment instructions (management API)
// ---------------------------------------------------------------------------------------------

async function create({ request, service, actor }: RequestContext) {
  const body = await readJsonObject(request)
  const instruction = await service.payments.create(actor, {
    name: body.name,
    description: body.description,
    paymentRequirements: parseRequirements(body.payment_requirements),
  })
  return data(instructionToWire(instruction))
}

async function list({ url, service, actor }: RequestContext) {
  const q = url.searchParams
  const { paymentInstructions, nextPageToken } = await service.payments.list(actor, {
    limit: parseLimit(q.get('limit')),
    pageToken: q.get('pageToken') || undefined,
    cid: q.get('cid') || undefined,
    namePrefix: q.get('name') || undefined,
    id: q.get('id') || undefined,
  })
  return data({ payment_instructions: paymentInstructions.map(instructionToWire), ...pageToken(nextPageToken) })
}

async function get({ params, service, actor }: RequestContext) {
  return data(instructionToWire(await service.payments.get(actor, params.id!)))
}

async function update({ request, params, service, actor }: RequestContext) {
  const body = await readJsonObject(request)
  const instruction = await service.payments.update(actor, params.id!, {
    name: body.name,
    description: body.description,
    paymentRequirements: parseRequirements(body.payment_requirements),
  })
  return data(instructionToWire(instruction))
}

async function remove({ params, service, actor }: RequestContext) {
  await service.payments.delete(actor, params.id!)
  return data(null)
}

async function listCids({ url, params, service, actor }: RequestContext) {
  const q = url.searchParams
  const { cids, nextPageToken } = await service.payments.listCids(actor, params.id!, {
    limit: parseLimit(q.get('limit')),
    pageToken: q.get('pageToken') || undefined,
  })
  return data({ cids, ...pageToken(nextPageToken) })
}

async function addCid({ params, service, actor }: RequestContext) {
  const attached = await service.payments.addCid(actor, params.id!, params.cid!)
  return data({
    payment_instruction_id: attached.instructionId,
    cid: attached.cid,
    created_at: attached.createdAt.toISOString(),
  })
}

async function removeCid({ params, service, actor }: RequestContext) {
  await service.payments.removeCid(actor, params.id!, params.cid!)
  return data({})
}

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
function readPayment(headers: Headers, offers: readonly PaymentRequirement[]): PaymentChoice | undefined {
  const value = headers.get(X402_HEADERS.paymentSignature) ?? headers.get(X402_HEADERS.xPayment)
  if (value === null) return undefined
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

/** Paid with the payment as the only credential; the answer is `{url}`, not wrapped in `data`. */
async function retrieve({ request, params, service, publicUrl, signal }: RequestContext) {
  const cid = params.cid!
  const result = await service.payments.retrievePrivate(cid, {
    resourceUrl: `${publicUrl}/v1/retrieve/private/${encodeURIComponent(cid)}`,
    publicUrl,
    signal,
    readPayment: (offers) => readPayment(request.headers, offers),
  })
  if (!result.paid) return paymentRequired(result.requirements, result.reason)
  const { name, value } = encodePaymentResponseHeader(result.settlement, result.x402Version)
  return json({ url: result.url }, 200, {
    [name]: value,
    'Cache-Control': 'no-store',
    'Access-Control-Expose-Headers': X402_EXPOSED_HEADERS,
  })
}

const base = '/v3/x402/payment_instructions'

export const paymentRoutes: Route[] = [
  {
    method: 'POST',
    path: base,
    auth: 'org:x402:write',
    summary: 'Create a payment instruction',
    openapi: {
      tags: ['Payments'],
      requestBody: jsonBody(ref('PaymentInstructionInput')),
      responses: okData(ref('PaymentInstruction')),
    },
    handle: create,
  },
  {
    method: 'GET',
    path: base,
    auth: 'org:x402:read',
    summary: 'List payment instructions',
    openapi: {
      tags: ['Payments'],
      parameters: [...pageParams, query('cid'), query('name', undefined, 'Name prefix'), query('id')],
      responses: okData(ref('PaymentInstructionList')),
    },
    handle: list,
  },
  {
    method: 'GET',
    path: `${base}/:id`,
    auth: 'org:x402:read',
    summary: 'Get a payment instruction',
    openapi: { tags: ['Payments'], responses: okData(ref('PaymentInstruction')) },
    handle: get,
  },
  {
    method: 'PATCH',
    path: `${base}/:id`,
    auth: 'org:x402:write',
    summary: 'Update a payment instruction',
    openapi: {
      tags: ['Payments'],
      requestBody: jsonBody(ref('PaymentInstructionInput')),
      responses: okData(ref('PaymentInstruction')),
    },
    handle: update,
  },
  {
    method: 'DELETE',
    path: `${base}/:id`,
    auth: 'org:x402:write',
    summary: 'Delete a payment instruction (409 while CIDs are attached)',
    openapi: {
      tags: ['Payments'],
      responses: { ...okNull('Deleted'), '409': jsonResponse('CIDs are still attached', ref('Error')) },
    },
    handle: remove,
  },
  {
    method: 'GET',
    path: `${base}/:id/cids`,
    auth: 'org:x402:read',
    summary: 'List the CIDs of a payment instruction',
    openapi: { tags: ['Payments'], parameters: pageParams, responses: okData(ref('PaymentInstructionCids')) },
    handle: listCids,
  },
  {
    method: 'PUT',
    path: `${base}/:id/cids/:cid`,
    auth: 'org:x402:write',
    summary: 'Attach a CID to a payment instruction',
    openapi: { tags: ['Payments'], responses: okData(ref('PaymentInstructionCid')) },
    handle: addCid,
  },
  {
    method: 'DELETE',
    path: `${base}/:id/cids/:cid`,
    auth: 'org:x402:write',
    summary: 'Remove a CID from a payment instruction',
    openapi: { tags: ['Payments'], responses: okData({ type: 'object', maxProperties: 0 }, 'Removed') },
    handle: removeCid,
  },
  {
    method: 'GET',
    path: '/v1/retrieve/private/:cid',
    auth: 'public',
    summary: 'Pay per request (x402) for a private download link',
    openapi: {
      tags: ['Payments'],
      description: 'x402 v1 (`X-PAYMENT`) and v2 (`PAYMENT-SIGNATURE`); the payment is the only credential.',
      parameters: [
        {
          name: 'PAYMENT-SIGNATURE',
          in: 'header',
          schema: { type: 'string' },
          description: 'x402 v2 payment (base64)',
        },
        { name: 'X-PAYMENT', in: 'header', schema: { type: 'string' }, description: 'x402 v1 payment (base64)' },
      ],
      responses: {
        '200': jsonResponse('Paid: a short-lived signed download link (not wrapped in `data`)', {
          type: 'object',
          properties: { url: { type: 'string', format: 'uri' } },
          required: ['url'],
        }),
        '402': jsonResponse('Payment required: the terms', ref('PaymentRequired')),
      },
    },
    handle: retrieve,
  },
]
