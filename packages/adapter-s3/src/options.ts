import type { S3Client } from '@aws-sdk/client-s3'
import { optionChecks } from '@pinfold/interface'

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
  const check = optionChecks('@pinfold/adapter-s3', 'createS3BlobStore')
  check.require('client', typeof options?.client?.send === 'function', 'must be an S3Client')
  const bucket = check.nonEmptyString('bucket', options.bucket)
  const prefix = options.prefix ?? ''
  // keys are relative: a leading "/" would make every key start with an empty path segment
  check.require(
    'prefix',
    typeof prefix === 'string' && !prefix.startsWith('/'),
    'must be a string that does not start with "/"',
  )
  const partSize = check.integerBetween(
    'partSize',
    options.partSize ?? MIN_PART_SIZE,
    MIN_PART_SIZE,
    MAX_PART_SIZE,
    'from 5 MiB (5242880) to 5 GiB',
  )
  const queueSize = check.positiveInteger('queueSize', options.queueSize ?? 4)
  return { client: options.client, bucket, prefix, partSize, queueSize }
}
