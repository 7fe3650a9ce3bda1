/**
 * `@pinfold/adapter-s3`: a `BlobStore` on S3 or any S3-compatible server, with presigned GET URLs
 * for private downloads. Bring your own `S3Client`.
 *
 * ```ts
 * import { S3Client } from '@aws-sdk/client-s3'
 * import { createS3BlobStore } from '@pinfold/adapter-s3'
 *
 * async function* text(value: string) {
 *   yield new TextEncoder().encode(value)
 * }
 *
 * const client = new S3Client({ region: 'us-east-1' })
 * const blobs = createS3BlobStore({ client, bucket: 'my-bucket', prefix: 'pinfold/' })
 * await blobs.put('blobs/hello', text('hello'))
 * console.log(await blobs.presignGet('blobs/hello', { expiresInSeconds: 300, contentType: 'text/plain' }))
 * ```
 */
export type { S3BlobStoreOptions } from './options.js'
export { createS3BlobStore, type S3BlobStore } from './s3-blob-store.js'
