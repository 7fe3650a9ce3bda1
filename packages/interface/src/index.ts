/**
 * Pinfold's ports, model and errors: the contracts between core and the adapters, with no
 * dependencies, so that implementing a port installs kilobytes rather than core's IPFS libraries.
 *
 * ```ts
 * import { type Clock, isPinfoldError, PinfoldError } from '@pinfold/interface'
 *
 * const frozen: Clock = { now: () => new Date('2025-01-01T00:00:00Z') }
 * const err = new PinfoldError('UNAVAILABLE', 'the database is down')
 * console.log(isPinfoldError(err) && err.code) // UNAVAILABLE
 * ```
 */
export * from './call-options.js'
export * from './cid-version.js'
export * from './errors.js'
export * from './fair-slots.js'
export * from './lazy-module.js'
export * from './model.js'
export * from './options.js'
export * from './payments/model.js'
// The ports: the only ways core reaches the outside world, one file each. Adapters implement them;
// the conformance suites in `@pinfold/conformance` prove that an implementation keeps every contract.
// Shared rules for every port:
// - Every method is async and accepts `{ signal }`; an aborted signal rejects with code `ABORTED`.
// - Failures are `PinfoldError`s with a code. Adapters wrap backend failures with `{ cause }` (a
//   database or network outage is `UNAVAILABLE`) and never swallow them.
// - Ids are opaque strings chosen by core; stores never invent ids.
// - "Tenant-scoped" lookups treat a record of another tenant exactly like a missing one.
export * from './ports/api-key-records.js'
export * from './ports/blob-store.js'
export * from './ports/block-fetcher.js'
export * from './ports/block-records.js'
export * from './ports/change-feed.js'
export * from './ports/clock.js'
export * from './ports/deny-rule-records.js'
export * from './ports/deployment-totals.js'
export * from './ports/embedder.js'
export * from './ports/event-records.js'
export * from './ports/file-records.js'
export * from './ports/gateway-records.js'
export * from './ports/group-records.js'
export * from './ports/id-source.js'
export * from './ports/image-transformer.js'
export * from './ports/payment-records.js'
export * from './ports/payment-verifier.js'
export * from './ports/pin-request-records.js'
export * from './ports/record-store.js'
export * from './ports/tenant-accounts.js'
export * from './ports/tenant-records.js'
export * from './ports/text-extractor.js'
export * from './ports/txt-resolver.js'
export * from './ports/upload-session-records.js'
export * from './ports/usage-records.js'
export * from './ports/vector-records.js'
export * from './ports/webhook-records.js'
export * from './ports/webhook-transport.js'
export * from './streams/abortable.js'
export * from './streams/chunk-weight.js'
export * from './vectors/checks.js'
