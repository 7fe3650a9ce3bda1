import type {
  CallOptions,
  PaymentPayload,
  PaymentRequirement,
  PaymentSettlement,
  PaymentVerification,
  PaymentVerifier,
} from '@pinfold/interface'
import { abortError, optionChecks, PinfoldError, throwIfAborted } from '@pinfold/interface'
import { X402_CHAINS, type X402Chain } from './networks.js'
import { isRecord } from './shapes.js'
import { toV1Requirements, toV2Requirements, toV2Resource } from './wire.js'

/** A facilitator settlement says whether money actually moved: only `success: true` carries a transaction. */
export interface FacilitatorSettlement extends PaymentSettlement {
  settledOnChain: boolean
}

export interface FacilitatorVerifier extends PaymentVerifier {
  settle(
    payment: PaymentPayload,
    requirement: PaymentRequirement,
    options?: CallOptions,
  ): Promise<FacilitatorSettlement>
}

export interface FacilitatorVerifierOptions {
  /** Base URL; `/verify` and `/settle` are appended. E.g. `https://x402.org/facilitator` (testnets only). */
  url: string
  /** Defaults to the global `fetch`. */
  fetch?: typeof fetch
  /** Per request; defaults to 10 s. Settling waits for a block, so do not go much lower in production. */
  timeoutMs?: number
  /** Extra request headers, or a function giving fresh ones per request (the CDP facilitator wants a new JWT each time). */
  headers?: Record<string, string> | (() => Record<string, string> | Promise<Record<string, string>>)
  chains?: readonly X402Chain[]
}

/** The body of both `POST /verify` and `POST /settle` in the x402 facilitator protocol. */
export interface FacilitatorRequest {
  x402Version: 1 | 2
  paymentPayload: Record<string, unknown>
  paymentRequirements: Record<string, unknown>
}

const DEFAULT_TIMEOUT_MS = 10_000

/**
 * A {@link PaymentVerifier} backed by an x402 facilitator, which can check balances and on-chain nonce state
 * and actually settle. Refusals come back as `{ valid: false }` / `{ success: false }`; an unreachable,
 * failing (5xx) or slow facilitator rejects with `UNAVAILABLE`, and an aborted caller signal with `ABORTED`.
 * A settle that times out has an unknown outcome (the transfer may still land), so do not ask the client to
 * pay again on `UNAVAILABLE` from `settle` without reconciling first.
 */
export function createFacilitatorVerifier(options: FacilitatorVerifierOptions): FacilitatorVerifier {
  const check = optionChecks('@pinfold/x402', 'createFacilitatorVerifier')
  check.httpUrl('url', options?.url)
  const timeoutMs = check.positiveInteger('timeoutMs', options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const baseUrl = options.url.replace(/\/+$/, '')
  const fetchImpl = options.fetch ?? globalThis.fetch
  const chains = options.chains ?? X402_CHAINS

  async function post(path: '/verify' | '/settle', body: FacilitatorRequest, signal: AbortSignal | undefined) {
    throwIfAborted(signal)
    const timeout = AbortSignal.timeout(timeoutMs)
    const extraHeaders = typeof options.headers === 'function' ? await options.headers() : options.headers
    const headers = new Headers(extraHeaders)
    headers.set('Content-Type', 'application/json')
    headers.set('Accept', 'application/json')
    let status: number
    let text: string
    try {
      const response = await fetchImpl(`${baseUrl}${path}`, {
        method: 'POST',
        headers,
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      })
      status = response.status
      text = await response.text()
    } catch (cause) {
      if (signal?.aborted) throw abortError(signal)
      const what = timeout.aborted ? `timed out after ${timeoutMs} ms` : `could not be reached (${String(cause)})`
      throw new PinfoldError('UNAVAILABLE', `x402 facilitator ${path} ${what}`, { cause })
    }
    if (status >= 500) {
      throw new PinfoldError('UNAVAILABLE', `x402 facilitator ${path} failed with HTTP ${status}`, {
        details: { status },
      })
    }
    return { status, json: parseJson(text) }
  }

  function unexpected(path: string, status: number): PinfoldError {
    return new PinfoldError('UNAVAILABLE', `x402 facilitator ${path} gave an unexpected HTTP ${status} response`, {
      details: { status },
    })
  }

  return {
    async verify(payment, requirement, callOptions): Promise<PaymentVerification> {
      const request = createFacilitatorRequest(payment, requirement, chains)
      const { status, json } = await post('/verify', request, callOptions?.signal)
      // Facilitators answer refusals with 200 or 400; either way the body says why.
      if (!isRecord(json) || typeof json.isValid !== 'boolean') throw unexpected('/verify', status)
      if (json.isValid && status < 300) {
        return { valid: true, payer: payment.authorization.from, nonce: payment.authorization.nonce }
      }
      const reason = typeof json.invalidReason === 'string' ? json.invalidReason : 'invalid_payment'
      return { valid: false, reason }
    },

    async settle(payment, requirement, callOptions): Promise<FacilitatorSettlement> {
      const request = createFacilitatorRequest(payment, requirement, chains)
      const { status, json } = await post('/settle', request, callOptions?.signal)
      if (!isRecord(json) || typeof json.success !== 'boolean') throw unexpected('/settle', status)
      // Our settlement header must name the network as the client's x402 version does, so keep the payment's.
      const base = { network: payment.network, payer: payment.authorization.from }
      // A "success" without a transaction hash proves nothing moved, so it is not reported as settled.
      if (json.success && status < 300 && typeof json.transaction === 'string' && json.transaction !== '') {
        return { success: true, transaction: json.transaction, settledOnChain: true, ...base }
      }
      const errorReason = typeof json.errorReason === 'string' ? json.errorReason : 'unexpected_settle_error'
      return { success: false, transaction: '', errorReason, settledOnChain: false, ...base }
    },
  }
}

/**
 * Rebuilds the wire payment a facilitator expects from the normalised one. For v2, `accepted` is re-derived
 * from the requirement; that is faithful because the decoder refused any payment whose `accepted` differed.
 */
export function createFacilitatorRequest(
  payment: PaymentPayload,
  requirement: PaymentRequirement,
  chains: readonly X402Chain[] = X402_CHAINS,
): FacilitatorRequest {
  const payload = { signature: payment.signature, authorization: payment.authorization }
  if (payment.x402Version === 2) {
    const accepted = toV2Requirements(requirement, chains)
    return {
      x402Version: 2,
      paymentPayload: { x402Version: 2, resource: toV2Resource(requirement), accepted, payload },
      paymentRequirements: { ...accepted },
    }
  }
  return {
    x402Version: 1,
    paymentPayload: { x402Version: 1, scheme: payment.scheme, network: payment.network, payload },
    paymentRequirements: { ...toV1Requirements(requirement, chains) },
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
