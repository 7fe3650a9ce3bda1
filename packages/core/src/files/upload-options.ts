import { invalid } from '@pinfold/interface'
import {
  validateCidVersion,
  validateExpiry,
  validateKeyvalues,
  validateName,
  validateNetwork,
} from '../common/validate.js'
import type { UploadOptions } from './api.js'
import type { Staged } from './upload-staging.js'

/**
 * An upload's options as they stand once every item has arrived (multipart sends them before or
 * after the bytes), with Pinata's defaults, checked: a bad one is `INVALID_INPUT`.
 */
export function resolveUploadOptions(given: Partial<UploadOptions>, staged: Staged, now: Date): UploadOptions {
  const options: UploadOptions = {
    network: validateNetwork(given.network ?? 'private'),
    name: validateName(given.name ?? staged.defaultName),
    groupId: given.groupId ?? null,
    keyvalues: validateKeyvalues(given.keyvalues ?? {}),
    cidVersion: validateCidVersion(given.cidVersion ?? 'v1'),
    expiresAt: validateExpiry(given.expiresAt ?? null, now),
    car: given.car ?? false,
  }
  if (options.car) {
    if (staged.folder) throw invalid('a CAR upload takes one CAR file, not a folder')
    if (options.network !== 'public') throw invalid('CAR uploads are supported only on the public network')
  }
  return options
}
