import type {
  Actor,
  NewEvent,
  OptionChecks,
  PaymentInstructionPatch,
  PaymentInstructionRecord,
  PaymentNetwork,
  PaymentRequirement,
  PaymentSettings,
  PaymentTerms,
} from '@pinfold/interface'
import { invalid, isPinfoldError, notFound, PinfoldError } from '@pinfold/interface'
import { nextPageToken, resolvePage } from '../common/pagination.js'
import { validateName } from '../common/validate.js'
import type { DownloadLinkOperations } from '../download-links/api.js'
import { MAX_LINK_SECONDS } from '../download-links/download-links.js'
import { systemEvent, tenantEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import type { PaymentChoice, PaymentOperations, PaymentTermsInput, RetrievePrivateResult } from './api.js'

/** What the payment operations use of the service; a paid retrieval answers with a download link. */
export interface PaymentOperationSettings extends Pick<ServiceContext, 'records' | 'ids' | 'clock' | 'features'> {
  downloadLinks: DownloadLinkOperations
}

/** 0.0001 USD in USDC's 6 decimals: the spec's price of one retrieval. */
export const DEFAULT_RETRIEVAL_AMOUNT = '100'
const DEFAULT_LINK_SECONDS = 60
const DEFAULT_MAX_TIMEOUT_SECONDS = 60
const MAX_REQUIREMENTS = 10
const MAX_DESCRIPTION_CHARS = 1024
const DEFAULT_CID_PAGE_LIMIT = 20
/** The x402 reason code for a payment whose (payer, nonce) was already redeemed. */
export const NONCE_ALREADY_USED = 'invalid_exact_evm_nonce_already_used'

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const ATOMIC_AMOUNT = /^[1-9][0-9]{0,76}$/
/** Latest moment a claimed nonce is kept for (year 9999): a facilitator may accept a far-future `validBefore`. */
const MAX_EXPIRY_SECONDS = 253_402_300_799n

/**
 * x402 pay-per-request: tenants' payment instructions (management API) and the anonymous paid
 * retrieval of a CID attached to one.
 *
 * Retrieval order: look up the instruction → offer its requirements → verify the payment → claim
 * `(payer, nonce)` in the record store → settle → sign the link. The claim comes after verification,
 * so a refused or unverifiable payment (facilitator down) burns nothing and can be retried; it comes
 * before settlement, so of many concurrent copies of one payment exactly one proceeds. If settlement
 * then fails or times out, the nonce stays burned: a replay must never succeed, and a timed-out settle
 * may still land on chain. The client signs a new authorization to try again.
 */
export function createPaymentOperations(ctx: PaymentOperationSettings): PaymentOperations {
  const { downloadLinks } = ctx
  const settings = () => ctx.features.require('paymentInstructions').paymentSettings

  const mustGet: PaymentOperations['get'] = async (actor, id, options) => {
    const instruction = await ctx.records.payments.getPaymentInstruction(actor.tenantId, id, options)
    if (!instruction) throw notFound('payment instruction')
    return instruction
  }

  return {
    async create(actor, input, options) {
      const config = settings()
      const requirements = input.paymentRequirements === undefined ? [{}] : requirementList(input.paymentRequirements)
      const id = ctx.ids.recordId()
      const name = validateName(input.name)
      return ctx.records.payments.createPaymentInstruction(
        {
          id,
          tenantId: actor.tenantId,
          version: 1,
          paymentRequirements: requirements.map((terms, i) => validateTerms(terms, config, i)),
          name,
          description: validateDescription(input.description) ?? null,
          createdAt: ctx.clock.now(),
        },
        { ...options, events: [instructionEvent(actor, 'payment_instruction.created', id, { name })] },
      )
    },

    get: mustGet,

    async list(actor, query = {}, options) {
      const page = resolvePage(query)
      const result = await ctx.records.payments.listPaymentInstructions(
        actor.tenantId,
        { cid: query.cid, namePrefix: query.namePrefix, id: query.id },
        page,
        options,
      )
      return { paymentInstructions: result.items, nextPageToken: nextPageToken(result.items, result.hasMore) }
    },

    async update(actor, id, input, options) {
      if (input.name === undefined && input.description === undefined && input.paymentRequirements === undefined) {
        throw invalid('nothing to update: give name, description or payment_requirements')
      }
      const patch: PaymentInstructionPatch = {}
      if (input.name !== undefined) patch.name = validateName(input.name)
      if (input.description !== undefined) patch.description = validateDescription(input.description) ?? null
      if (input.paymentRequirements !== undefined) {
        const config = settings()
        patch.paymentRequirements = requirementList(input.paymentRequirements).map((terms, i) =>
          validateTerms(terms, config, i),
        )
      }
      const events = [instructionEvent(actor, 'payment_instruction.updated', id, { fields: Object.keys(patch) })]
      const updated = await ctx.records.payments.updatePaymentInstruction(actor.tenantId, id, patch, {
        ...options,
        events,
      })
      if (!updated) throw notFound('payment instruction')
      return updated
    },

    async delete(actor, id, options) {
      const events = [instructionEvent(actor, 'payment_instruction.deleted', id)]
      if (!(await ctx.records.payments.deletePaymentInstruction(actor.tenantId, id, { ...options, events }))) {
        throw notFound('payment instruction')
      }
    },

    async listCids(actor, id, query = {}, options) {
      const page = resolvePage({ ...query, limit: query.limit ?? DEFAULT_CID_PAGE_LIMIT })
      const result = await ctx.records.payments.listPaymentCids(actor.tenantId, id, page, options)
      if (!result) throw notFound('payment instruction')
      const cursors = result.items.map((item) => ({ createdAt: item.createdAt, id: item.cid }))
      return { cids: result.items.map((item) => item.cid), nextPageToken: nextPageToken(cursors, result.hasMore) }
    },

    async addCid(actor, id, cid, options) {
      const checked = validateCid(cid)
      const events = [instructionEvent(actor, 'payment_instruction.cid_added', id, { cid: checked })]
      return ctx.records.payments.attachPaymentCid(actor.tenantId, id, checked, ctx.clock.now(), { ...options, events })
    },

    async removeCid(actor, id, cid, options) {
      await mustGet(actor, id, options)
      const events = [instructionEvent(actor, 'payment_instruction.cid_removed', id, { cid })]
      if (!(await ctx.records.payments.detachPaymentCid(actor.tenantId, id, cid, { ...options, events }))) {
        throw notFound('CID on this payment instruction')
      }
    },

    async retrievePrivate(cid, options) {
      // before any lookup, so a misconfigured server never burns a nonce it cannot serve
      const { paymentSettings: config, payments: verifier } = ctx.features.require('paidRetrieval')
      const signal = options.signal
      const priced = await ctx.records.payments.findPricedCid(cid, { signal })
      if (!priced) throw notFound('paid content')
      const requirements = offersFor(priced.instruction, config, options.resourceUrl, cid)
      const refuse = (reason?: string): RetrievePrivateResult => ({ paid: false, requirements, reason })

      let choice: PaymentChoice | undefined
      try {
        choice = options.readPayment(requirements)
      } catch (err) {
        if (isPinfoldError(err) && err.code === 'PAYMENT_REQUIRED') {
          return refuse(typeof err.details?.reason === 'string' ? err.details.reason : 'invalid_payment')
        }
        throw err
      }
      if (!choice) return refuse()
      const { payment, requirement } = choice
      if (!requirements.includes(requirement)) {
        throw new PinfoldError('INTERNAL', 'readPayment must return one of the requirements it was offered')
      }

      const verification = await verifier.verify(payment, requirement, { signal })
      if (!verification.valid) return refuse(verification.reason)

      const claim = await ctx.records.payments.claimPaymentNonce(
        verification.payer.toLowerCase(),
        verification.nonce.toLowerCase(),
        expiryOf(payment.authorization.validBefore),
        { signal },
      )
      if (claim === 'duplicate') return refuse(NONCE_ALREADY_USED)

      // Not given the caller's signal: once the nonce is burned, settlement runs to its end.
      const settlement = await verifier.settle(payment, requirement)
      if (!settlement.success) return refuse(settlement.errorReason ?? 'settlement_failed')
      // The settlement happened outside the store (on chain), so its entry has no transaction of
      // ours to join: it is appended once the payment is taken, and a failure to append it does
      // not withhold the link that was paid for.
      const settled = systemEvent(
        priced.instruction.tenantId,
        {
          type: 'payment.settled',
          target: { kind: 'payment_instruction', id: priced.instruction.id },
          data: { cid, payer: settlement.payer, network: settlement.network, transaction: settlement.transaction },
        },
        'x402',
      )
      await ctx.records.events.appendEvents([settled]).catch(() => {})

      // The instruction's tenant holds the CID (findPricedCid checked), so the link opens its file.
      const seller = { tenantId: priced.instruction.tenantId, userId: '' }
      // without the caller's signal, like the settlement: the payment is taken, the link is owed
      const url = await downloadLinks.create(
        seller,
        { url: `/files/${cid}`, expires: config.linkSeconds ?? DEFAULT_LINK_SECONDS },
        options.publicUrl,
      )
      return {
        paid: true,
        url,
        settlement,
        x402Version: payment.x402Version,
      }
    },
  }
}

/** The full x402 requirements of an instruction, in its order; terms naming a network no longer configured are skipped. */
function offersFor(
  instruction: PaymentInstructionRecord,
  config: PaymentSettings,
  resource: string,
  cid: string,
): PaymentRequirement[] {
  const offers: PaymentRequirement[] = []
  for (const terms of instruction.paymentRequirements) {
    const network = findNetwork(config, terms.network)
    if (!network) continue
    offers.push({
      scheme: 'exact',
      network: network.v1Name,
      asset: terms.asset,
      payTo: terms.payTo,
      amount: terms.amount,
      resource,
      description: terms.description ?? instruction.description ?? `Private retrieval of ${cid}`,
      mimeType: 'application/json',
      maxTimeoutSeconds: config.maxTimeoutSeconds ?? DEFAULT_MAX_TIMEOUT_SECONDS,
      extra: { name: network.usdc.name, version: network.usdc.version },
    })
  }
  if (offers.length === 0) {
    throw new PinfoldError('UNAVAILABLE', 'the payment instruction names no network this server accepts')
  }
  return offers
}

/**
 * The payment settings checked at construction (`createFileService`): a bad default would otherwise
 * be blamed on every request that leaves its field to it, and a bad link lifetime would fail a paid
 * retrieval only once its payment was taken.
 */
export function checkPaymentSettings(check: OptionChecks, settings: PaymentSettings): void {
  const networks = settings?.networks
  check.require('paymentSettings', Array.isArray(networks) && networks.length > 0, 'must list at least one network')
  const { defaultNetwork, defaultPayTo, defaultAmount, linkSeconds, maxTimeoutSeconds } = settings
  if (defaultNetwork !== undefined) {
    const known = typeof defaultNetwork === 'string' && findNetwork(settings, defaultNetwork) !== undefined
    check.require('paymentSettings.defaultNetwork', known, 'must name one of `networks` (v1 name or CAIP-2 id)')
  }
  if (defaultPayTo !== undefined) {
    const address = typeof defaultPayTo === 'string' && ADDRESS.test(defaultPayTo)
    check.require('paymentSettings.defaultPayTo', address, 'must be a 0x address')
  }
  if (defaultAmount !== undefined) {
    const atomic = typeof defaultAmount === 'string' && ATOMIC_AMOUNT.test(defaultAmount)
    check.require(
      'paymentSettings.defaultAmount',
      atomic,
      "must be a positive integer string in the token's smallest unit",
    )
  }
  if (linkSeconds !== undefined) check.integerBetween('paymentSettings.linkSeconds', linkSeconds, 1, MAX_LINK_SECONDS)
  if (maxTimeoutSeconds !== undefined) check.positiveInteger('paymentSettings.maxTimeoutSeconds', maxTimeoutSeconds)
}

function findNetwork(config: PaymentSettings, name: string): PaymentNetwork | undefined {
  return config.networks.find((n) => n.v1Name === name || n.caip2 === name)
}

function requirementList(value: unknown): PaymentTermsInput[] {
  if (!Array.isArray(value) || value.length === 0 || value.length > MAX_REQUIREMENTS) {
    throw invalid(`payment_requirements must be an array of 1 to ${MAX_REQUIREMENTS} requirements`)
  }
  return value.map((item, i) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      throw invalid(`payment_requirements[${i}] must be an object`)
    }
    return item as PaymentTermsInput
  })
}

/** Fills a requirement's gaps from the server's defaults and checks it names a configured network's USDC. */
function validateTerms(input: PaymentTermsInput, config: PaymentSettings, index: number): PaymentTerms {
  const field = (name: string) => `payment_requirements[${index}].${name}`
  const networkName = input.network ?? config.defaultNetwork ?? config.networks[0]!.v1Name
  if (typeof networkName !== 'string') throw invalid(`${field('network')} must be a string`)
  const network = findNetwork(config, networkName)
  if (!network) {
    const known = config.networks.map((n) => `${n.v1Name} (${n.caip2})`).join(', ')
    throw invalid(`${field('network')} must be one of ${known}`)
  }
  const asset = input.asset ?? network.usdc.address
  if (typeof asset !== 'string' || asset.toLowerCase() !== network.usdc.address.toLowerCase()) {
    throw invalid(`${field('asset')} must be ${network.usdc.address} (USDC on ${network.v1Name})`)
  }
  const payTo = input.payTo ?? config.defaultPayTo
  if (payTo === undefined) throw invalid(`${field('pay_to')} is required (this server has no default)`)
  if (typeof payTo !== 'string' || !ADDRESS.test(payTo)) throw invalid(`${field('pay_to')} must be a 0x address`)
  const amount = typeof input.amount === 'number' ? String(input.amount) : (input.amount ?? config.defaultAmount)
  const atomic = amount ?? DEFAULT_RETRIEVAL_AMOUNT
  if (typeof atomic !== 'string' || !ATOMIC_AMOUNT.test(atomic)) {
    throw invalid(`${field('amount')} must be a positive integer string in the token's smallest unit`)
  }
  const description = validateDescription(input.description, field('description'))
  return {
    asset: network.usdc.address,
    payTo: payTo as `0x${string}`,
    network: networkName,
    amount: atomic,
    ...(description == null ? {} : { description }),
  }
}

function validateDescription(value: unknown, field = 'description'): string | null | undefined {
  if (value === undefined || value === null) return value
  if (typeof value !== 'string') throw invalid(`${field} must be a string`)
  if (value.length > MAX_DESCRIPTION_CHARS)
    throw invalid(`${field} must be at most ${MAX_DESCRIPTION_CHARS} characters`)
  return value
}

function validateCid(cid: string): string {
  if (!/^[A-Za-z0-9]{1,256}$/.test(cid)) throw invalid('cid must be a CID')
  return cid
}

function expiryOf(validBefore: string): Date {
  const seconds = BigInt(validBefore)
  return new Date(Number(seconds > MAX_EXPIRY_SECONDS ? MAX_EXPIRY_SECONDS : seconds) * 1000)
}

/** A change to one of the tenant's payment instructions, for the audit log. */
function instructionEvent(actor: Actor, type: string, id: string, data: Record<string, unknown> = {}): NewEvent {
  return tenantEvent(actor, { type, target: { kind: 'payment_instruction', id }, data })
}
