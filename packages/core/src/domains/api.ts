/** `FileService.domains`: the contract (its operations are in `domains.ts`). */

import type { Actor, CallOptions, DomainRecord } from '@pinfold/interface'

/**
 * Custom gateway domains. A registered domain stays `pending_ownership` until a TXT record at
 * `_service-verify.<domain>` holds the token issued with it; `verify` then makes it `active`, and
 * requests whose `Host` is that domain are served as the tenant's gateway. Any number of tenants may
 * claim one name; the first to verify owns it, and an unverified claim lapses after a week.
 */
export interface DomainOperations {
  /** `createFileService({ gatewayDomain })`: dedicated gateways are `{name}.{gatewayDomain}`. */
  readonly gatewayDomain: string | undefined

  /**
   * Registers a pending claim. `reservedHosts`: the host names the deployment answers on itself (the
   * API's, the subdomain gateway's); neither they nor names under them can be claimed.
   * A name directly under `gatewayDomain` is a dedicated gateway: claimed `active` at once, with no
   * TXT record (the deployment owns that domain); the first tenant to claim it keeps it.
   * `INVALID_INPUT`: not a public host name (an IP literal, an internal name, a reserved host, a
   * name deeper under `gatewayDomain`). `CONFLICT`: the name is active for some tenant, or this
   * tenant's claim to it has not lapsed.
   */
  create(actor: Actor, domain: string, reservedHosts?: readonly string[], options?: CallOptions): Promise<DomainRecord>

  /** The tenant's domain with this id. `NOT_FOUND`. */
  get(actor: Actor, id: string, options?: CallOptions): Promise<DomainRecord>

  /** Every domain of the tenant. */
  list(actor: Actor, options?: CallOptions): Promise<DomainRecord[]>

  /** Removes a claim or an active domain. `NOT_FOUND`. */
  remove(actor: Actor, id: string, options?: CallOptions): Promise<void>

  /**
   * Looks the TXT record up; activates the domain when one of its values equals the token. A failed
   * or empty lookup leaves it `pending_ownership` (that is the answer, not an error). `NOT_FOUND`.
   * `CONFLICT`: the claim lapsed, or another tenant verified the name first. `UNAVAILABLE`: no TXT
   * resolver configured (`createFileService({ resolveTxt })`): refused before any store is read.
   */
  verify(actor: Actor, id: string, options?: CallOptions): Promise<DomainRecord>

  /**
   * Who serves `host` (a host name, port ignored): the tenant of its active claim, or `pending`
   * while only unverified claims exist; `undefined` when nobody claims it. IP literals are never
   * domains.
   */
  route(host: string, options?: CallOptions): Promise<{ tenantId: string; status: DomainRecord['status'] } | undefined>
}
