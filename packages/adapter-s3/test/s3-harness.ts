import { randomUUID } from 'node:crypto'
import { HeadObjectCommand, ListMultipartUploadsCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3'
import type { BlobStoreHarness } from '@pinfold/conformance'
import { createS3BlobStore } from '../src/index.js'

/**
 * A store under a fresh prefix of a shared bucket (one server per file, a clean namespace per
 * test), with raw probes that talk to S3 directly rather than through the store.
 */
export function s3Harness(client: S3Client, bucket: string): BlobStoreHarness {
  const prefix = `t-${randomUUID()}/`
  const store = createS3BlobStore({ client, bucket, prefix })
  return {
    store,
    // the upload id and the part tokens are all the state: a new store continues from them
    reopen: () => createS3BlobStore({ client, bucket, prefix }),
    probe: {
      async exists(key) {
        try {
          await client.send(new HeadObjectCommand({ Bucket: bucket, Key: prefix + key }))
          return true
        } catch (err) {
          if ((err as { name?: string }).name === 'NotFound') return false
          throw err
        }
      },
      count: async () => (await countObjects(client, bucket, prefix)) + (await countUploads(client, bucket, prefix)),
    },
  }
}

export async function countObjects(client: S3Client, bucket: string, prefix: string): Promise<number> {
  let count = 0
  let token: string | undefined
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
    )
    count += page.KeyCount ?? page.Contents?.length ?? 0
    token = page.IsTruncated ? page.NextContinuationToken : undefined
  } while (token)
  return count
}

/** Multipart uploads still open under `prefix`; 0 on servers without ListMultipartUploads (s3rver). */
export async function countUploads(client: S3Client, bucket: string, prefix: string): Promise<number> {
  try {
    const page = await client.send(new ListMultipartUploadsCommand({ Bucket: bucket, Prefix: prefix }))
    return page.Uploads?.length ?? 0
  } catch (err) {
    if ((err as { name?: string }).name === 'NotImplemented') return 0
    throw err
  }
}
