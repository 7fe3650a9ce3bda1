import { lookup as systemLookup } from 'node:dns/promises'
import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import type { LookupFunction } from 'node:net'
import type { CallOptions, WebhookPost, WebhookPostResult, WebhookTransport, WebhookUrlCheck } from '@pinfold/core'
import ipaddr from 'ipaddr.js'

/** `node:dns` `lookup` with `all: true`: what the operating system resolves a name to. */
export type HostLookup = (name: string, options: { all: true }) => Promise<Array<{ address: string; family: number }>>

export interface WebhookTransportOptions {
  /**
   * Post to loopback, private, link-local and other non-public addresses too
   * (`PINFOLD_WEBHOOK_ALLOW_PRIVATE`: a receiver on the operator's own network, or tests).
   */
  allowPrivate?: boolean | undefined
  /** Resolves host names; default the operating system's resolver. */
  lookup?: HostLookup | undefined
}

/** What an address is, in words, by the range ipaddr.js places it in. */
const RANGE_WORDS: Record<string, string> = {
  unspecified: 'an unspecified address',
  loopback: 'a loopback address',
  private: 'a private address',
  uniqueLocal: 'a private (unique local) address',
  linkLocal: 'a link-local address',
  carrierGradeNat: 'a shared (carrier-grade NAT) address',
  multicast: 'a multicast address',
  broadcast: 'the broadcast address',
  ipv4Mapped: 'an IPv4-mapped IPv6 address',
  reserved: 'a reserved address',
}

/**
 * What an address is when it may not receive deliveries (`a loopback address`), or `undefined`. Only public unicast is allowed: every
 * other range ipaddr.js knows (loopback, private, link-local, CGNAT, multicast, reserved, the
 * IPv6 forms that embed an IPv4 address — mapped, NAT64, 6to4, Teredo — and the rest) may lead
 * into the operator's own networks.
 */
export function addressRefusal(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an IP address'
  const range = ipaddr.parse(address).range()
  if (range === 'unicast') return undefined
  return RANGE_WORDS[range] ?? `an address of the ${range} range`
}

/**
 * Webhook deliveries over node:http(s), decided on resolved addresses (DESIGN rule 17): the URL's
 * host is resolved once, every address is checked, and the socket connects to the first checked
 * address through a `lookup` that answers only it, so a second resolution (DNS rebinding) never
 * happens. TLS still verifies the certificate against the URL's host name. No redirect is followed
 * (a 3xx is a failed attempt: a redirect could point anywhere). The whole exchange is bounded by
 * `timeoutMs`; at most `maxResponseBytes` of the answer are read, then the socket is dropped.
 */
export function createWebhookTransport(options: WebhookTransportOptions = {}): WebhookTransport {
  const lookup: HostLookup = options.lookup ?? ((name, how) => systemLookup(name, how))
  const refusal = (address: string) => (options.allowPrivate ? undefined : addressRefusal(address))

  /** The addresses the URL's host stands for (`literal`: it is one), or why there are none. */
  async function resolve(url: URL): Promise<{ addresses: string[]; literal: boolean } | { unresolved: string }> {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname
    if (ipaddr.isValid(host)) return { addresses: [host], literal: true }
    try {
      const found = await lookup(host, { all: true })
      if (found.length === 0) return { unresolved: `${host} resolves to no address` }
      return { addresses: found.map((entry) => entry.address), literal: false }
    } catch (error) {
      return { unresolved: `${host} does not resolve (${(error as { code?: string }).code ?? String(error)})` }
    }
  }

  /** The check, keeping the addresses an allowed URL resolved to (the ones to connect to). */
  async function inspect(
    target: string,
  ): Promise<Exclude<WebhookUrlCheck, { kind: 'allowed' }> | { kind: 'allowed'; addresses: string[] }> {
    const url = new URL(target)
    const resolved = await resolve(url)
    if ('unresolved' in resolved) return { kind: 'unresolved', reason: resolved.unresolved }
    for (const address of resolved.addresses) {
      const what = refusal(address)
      if (!what) continue
      const reason = resolved.literal ? `${address} is ${what}` : `${url.hostname} resolves to ${address}, ${what}`
      return { kind: 'refused', reason }
    }
    return { kind: 'allowed', addresses: resolved.addresses }
  }

  async function post(request: WebhookPost, callOptions?: CallOptions): Promise<WebhookPostResult> {
    callOptions?.signal?.throwIfAborted()
    const checked = await inspect(request.url)
    if (checked.kind === 'refused') return checked
    if (checked.kind === 'unresolved') return { kind: 'unreachable', reason: checked.reason }
    const address = checked.addresses[0]!
    const timeout = AbortSignal.timeout(request.timeoutMs)
    const signal = callOptions?.signal ? AbortSignal.any([callOptions.signal, timeout]) : timeout
    try {
      const status = await send(new URL(request.url), address, request, signal)
      return { kind: 'answered', status }
    } catch (error) {
      callOptions?.signal?.throwIfAborted()
      if (timeout.aborted) return { kind: 'unreachable', reason: `no answer within ${request.timeoutMs} ms` }
      const code = (error as { code?: string }).code
      return { kind: 'unreachable', reason: `${code ?? 'request failed'}: ${(error as Error).message}` }
    }
  }

  async function check(url: string): Promise<WebhookUrlCheck> {
    const found = await inspect(url)
    return found.kind === 'allowed' ? { kind: 'allowed' } : found
  }

  return { check, post }
}

/** One POST to `address` (the URL's host checked and resolved), its status once the capped body is read. */
function send(url: URL, address: string, request: WebhookPost, signal: AbortSignal): Promise<number> {
  const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4
  // answers every lookup of this request with the checked address: the socket never resolves again
  const pinned: LookupFunction = (_name, lookupOptions, callback) => {
    if ((lookupOptions as { all?: boolean }).all) {
      ;(callback as unknown as (e: null, all: Array<{ address: string; family: number }>) => void)(null, [
        { address, family },
      ])
    } else callback(null, address, family)
  }
  const body = Buffer.from(request.body)
  const requester = url.protocol === 'https:' ? httpsRequest : httpRequest
  return new Promise<number>((resolve, reject) => {
    const req = requester(url, {
      method: 'POST',
      headers: { ...request.headers, 'content-length': String(body.length) },
      lookup: pinned,
      signal,
      agent: false,
    })
    req.on('error', reject)
    req.on('response', (res: IncomingMessage) => {
      let read = 0
      res.on('data', (chunk: Buffer) => {
        read += chunk.length
        // enough to know it answered: the rest is never read
        if (read >= request.maxResponseBytes) {
          res.destroy()
          resolve(res.statusCode ?? 0)
        }
      })
      res.on('end', () => resolve(res.statusCode ?? 0))
      res.on('error', reject)
    })
    req.end(body)
  })
}
