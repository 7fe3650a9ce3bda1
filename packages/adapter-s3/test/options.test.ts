import type { S3Client } from '@aws-sdk/client-s3'
import { describe, expect, it } from 'vitest'
import { createS3BlobStore, type S3BlobStoreOptions } from '../src/index.js'

// construction sends nothing: a stand-in with `send` is enough to reach the other checks
const client = { send: async () => ({}) } as unknown as S3Client

const BAD: [string, Partial<S3BlobStoreOptions>][] = [
  ['client', { client: undefined as unknown as S3Client }],
  ['bucket', { bucket: '' }],
  ['prefix', { prefix: '/abs' }],
  ['partSize', { partSize: 1024 * 1024 }],
  ['partSize', { partSize: 6 * 1024 ** 3 }],
  ['queueSize', { queueSize: 0 }],
]

describe('createS3BlobStore options', () => {
  it.each(BAD)(
    'createS3BlobStore - a bad `%s` is INVALID_INPUT at construction, naming package and option',
    (option, bad) => {
      expect(() => createS3BlobStore({ client, bucket: 'b', ...bad })).toThrow(
        expect.objectContaining({
          code: 'INVALID_INPUT',
          message: expect.stringContaining(`@pinfold/adapter-s3 createS3BlobStore: option \`${option}\``),
        }),
      )
    },
  )
})
