import { randomBytes } from 'node:crypto'
import { invalid, notFound } from '../errors.js'
import type { Actor } from '../model.js'
import type { DomainRecord } from '../ports/gateway-records.js'
import type { ServiceContext } from './context.js'

/** TXT lookups: each record as its character-strings (node:dns `resolveTxt` shape). */
export type TxtResolver = (name: string) => Promise<string[][]>

export const VERIFICATION_PREFIX = '_service-verify.'

/** A host name: lower-case labels of letters, digits and inner hyphens, at least two labels. */
export function normaliseDomain(value: unknown): string {
  if (typeof value !== 'string') throw invalid('domain must be a string')
  const domain = value.trim().toLowerCase().replace(/\.$/, '')
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/
  const labels = domain.split('.')
  if (domain.length > 253 || labels.length < 2 || !labels.every((l) => label.test(l))) {
    throw invalid('domain must be a host name such as files.example.com')
  }
  return domain
}

/**
 * Custom gateway domains. A registered domain stays `pending_ownership` until a TXT record at
 * `_service-verify.<domain>` holds the token issued with it; `verify` then makes it `active`, and
 * requests whose `Host` is that domain are served as the tenant's gateway.
 */
export function createDomainOperations(ctx: ServiceContext, resolver?: TxtResolver | undefined) {
  const mustGet = async (actor: Actor, id: string) => {
    const domain = await ctx.records.getDomain(actor.tenantId, id)
    if (!domain) throw notFound('domain')
    return domain
  }
  return {
    /** The resolver the service was built with; the HTTP layer supplies node:dns otherwise. */
    resolver,

    async create(actor: Actor, domain: unknown): Promise<DomainRecord> {
      return ctx.records.createDomain({
        id: ctx.ids.recordId(),
        tenantId: actor.tenantId,
        domain: normaliseDomain(domain),
        verificationToken: `pinfold-verify=${randomBytes(18).toString('base64url')}`,
        status: 'pending_ownership',
        createdAt: ctx.clock.now(),
        verifiedAt: null,
      })
    },
    get: mustGet,
    list: (actor: Actor) => ctx.records.listDomains(actor.tenantId),
    async remove(actor: Actor, id: string): Promise<void> {
      if (!(await ctx.records.deleteDomain(actor.tenantId, id))) throw notFound('domain')
    },

    /**
     * Looks up the TXT record; activates the domain when one of its values equals the token.
     * A failed or empty lookup leaves it `pending_ownership` (that is the answer, not an error).
     */
    async verify(actor: Actor, id: string, resolveTxt: TxtResolver): Promise<DomainRecord> {
      const domain = await mustGet(actor, id)
      if (domain.status === 'active') return domain
      let records: string[][] = []
      try {
        records = await resolveTxt(`${VERIFICATION_PREFIX}${domain.domain}`)
      } catch {
        records = []
      }
      if (!records.some((chunks) => chunks.join('') === domain.verificationToken)) return domain
      return (await ctx.records.activateDomain(actor.tenantId, id, ctx.clock.now())) ?? domain
    },

    /** The tenant whose active domain `host` is; `pending` when registered but not verified. */
    async route(host: string): Promise<{ tenantId: string; status: DomainRecord['status'] } | undefined> {
      const name = host.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '')
      if (!name || name.startsWith('[')) return undefined
      const domain = await ctx.records.findDomain(name)
      return domain && { tenantId: domain.tenantId, status: domain.status }
    },
  }
}
