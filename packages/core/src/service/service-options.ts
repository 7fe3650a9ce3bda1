import type { Clock, IdSource } from '@pinfold/interface'
import { optionChecks } from '@pinfold/interface'
import { v7 as uuidv7 } from 'uuid'
import type { ServiceContext } from './context.js'
import { resolveFeatures } from './features.js'
import type { FileServiceOptions } from './file-service.js'

export const systemClock: Clock = { now: () => new Date() }

export const uuidIds: IdSource = {
  recordId: () => uuidv7(),
  // time-ordered keys keep a store's listing roughly chronological, which helps orphan sweeps
  blobKey: () => `blobs/${uuidv7()}`,
}

/** Pinata's upload limit. */
const DEFAULT_MAX_UPLOAD_BYTES = 25 * 1024 ** 3
/** An HMAC key shorter than its hash's output (SHA-256) weakens every URL signed with it. */
const MIN_SECRET_BYTES = 32

/**
 * Every `createFileService` option checked once, at construction, and the features they turn on
 * decided there: a misconfiguration is a start-up error, never a failure of some later request.
 */
export function checkServiceOptions(options: FileServiceOptions): ServiceContext {
  const check = optionChecks('@pinfold/core', 'createFileService')
  check.require('records', typeof options?.records === 'object' && options.records !== null, 'is required')
  check.require('blobs', typeof options.blobs === 'object' && options.blobs !== null, 'is required')
  if (options.signingSecret !== undefined) check.secret('signingSecret', options.signingSecret, MIN_SECRET_BYTES)
  if (options.paymentSettings !== undefined) {
    const networks = options.paymentSettings?.networks
    check.require('paymentSettings', Array.isArray(networks) && networks.length > 0, 'must list at least one network')
  }
  return {
    records: options.records,
    blobs: options.blobs,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? uuidIds,
    maxUploadBytes: check.nonNegativeInteger('maxUploadBytes', options.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES),
    features: resolveFeatures(options),
  }
}
