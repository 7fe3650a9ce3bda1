import type { S3Client } from '@aws-sdk/client-s3'
import { PinfoldError } from '@pinfold/core'

export interface S3BlobStoreOptions {
  /** A configured client; the store never creates one, so credentials and endpoints stay yours. */
  client: S3Client
  bucket: string
  /** Prepended to every key (e.g. `pinfold/`); `list` strips it again. Default: none. */
  prefix?: string | undefined
  /** Bytes per multipart part: at least 5 MiB (S3's minimum). Default: 5 MiB. */
  partSize?: number | undefined
  /** Parts uploaded concurrently by one `put`. Default: 4. */
  queueSize?: number | undefined
}

export interface ResolvedS3Options {
  client: S3Client
  bucket: string
  prefix: string
  partSize: number
  queueSize: number
}

const MIB = 1024 * 1024
const MIN_PART_SIZE = 5 * MIB
const MAX_PART_SIZE = 5 * 1024 * MIB

export function resolveS3Options(options: S3BlobStoreOptions): ResolvedS3Options {
  if (typeof options?.client?.send !== 'function') throw optionError('`client` must be an S3Client')
  if (typeof options.bucket !== 'string' || options.bucket === '') {
    throw optionError('`bucket` must be a non-empty string')
  }
  const prefix = options.prefix ?? ''
  if (typeof prefix !== 'string' || prefix.startsWith('/')) {
    throw optionError('`prefix` must be a string that does not start with "/"')
  }
  const partSize = options.partSize ?? MIN_PART_SIZE
  if (!Number.isSafeInteger(partSize) || partSize < MIN_PART_SIZE || partSize > MAX_PART_SIZE) {
    throw optionError('`partSize` must be an integer from 5 MiB (5242880) to 5 GiB')
  }
  const queueSize = options.queueSize ?? 4
  if (!Number.isSafeInteger(queueSize) || queueSize < 1) throw optionError('`queueSize` must be a positive integer')
  return { client: options.client, bucket: options.bucket, prefix, partSize, queueSize }
}

function optionError(message: string): PinfoldError {
  return new PinfoldError('INVALID_INPUT', `@pinfold/adapter-s3: ${message}`)
}
