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
export * from './model.js'
export * from './options.js'
export * from './payments/model.js'
export * from './ports/api-key-records.js'
export * from './ports/block-fetcher.js'
export * from './ports/block-records.js'
export * from './ports/gateway-records.js'
export * from './ports/image-transformer.js'
export * from './ports/payment-records.js'
export * from './ports/pin-request-records.js'
export * from './ports/upload-session-records.js'
export * from './ports/usage-records.js'
export * from './ports/vector-records.js'
export * from './ports.js'
export * from './streams/abortable.js'
export * from './streams/chunk-weight.js'
export * from './vectors/checks.js'
