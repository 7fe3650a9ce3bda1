import { CreateBucketCommand, type S3Client } from '@aws-sdk/client-s3'
import { describeBlobStore } from '@pinfold/conformance'
import { afterAll, beforeAll, describe } from 'vitest'
import { containerRuntimeAvailable } from './container-runtime.js'
import { s3Harness } from './s3-harness.js'
import { type S3Endpoint, startS3rver, testClient } from './s3-test-server.js'

const capabilities = { list: true, presignGet: true, staged: true }

describe('s3rver (in-process)', () => {
  const bucket = 'pinfold-conformance'
  let server: Awaited<ReturnType<typeof startS3rver>>
  beforeAll(async () => {
    server = await startS3rver(bucket)
  })
  afterAll(() => server.close())
  describeBlobStore('s3 (s3rver)', async () => s3Harness(server.client, bucket), capabilities)
})

// Any S3-compatible endpoint (CI's MinIO, real S3): the bucket must exist already.
const endpoint = process.env.TEST_S3_ENDPOINT
if (endpoint) {
  describe('TEST_S3_ENDPOINT', () => {
    const bucket = process.env.TEST_S3_BUCKET ?? 'pinfold-test'
    let client: S3Client
    beforeAll(() => {
      client = testClient({
        endpoint,
        region: process.env.TEST_S3_REGION ?? 'us-east-1',
        accessKeyId: process.env.TEST_S3_ACCESS_KEY_ID ?? '',
        secretAccessKey: process.env.TEST_S3_SECRET_ACCESS_KEY ?? '',
      })
    })
    afterAll(() => client.destroy())
    describeBlobStore(`s3 (${endpoint})`, async () => s3Harness(client, bucket), capabilities)
  })
}

// MinIO in a container, registered only where a container engine answers.
if (await containerRuntimeAvailable()) {
  describe('MinIO (testcontainers)', () => {
    const bucket = 'pinfold-conformance'
    let stop: () => Promise<unknown>
    let client: S3Client
    beforeAll(async () => {
      const { MinioContainer } = await import('@testcontainers/minio')
      const container = await new MinioContainer('minio/minio:RELEASE.2025-04-22T22-12-26Z').start()
      stop = () => container.stop()
      const target: S3Endpoint = {
        endpoint: container.getConnectionUrl(),
        region: 'us-east-1',
        accessKeyId: container.getUsername(),
        secretAccessKey: container.getPassword(),
      }
      client = testClient(target)
      await client.send(new CreateBucketCommand({ Bucket: bucket }))
    }, 180_000)
    afterAll(async () => {
      client?.destroy()
      await stop?.()
    })
    describeBlobStore('s3 (MinIO)', async () => s3Harness(client, bucket), capabilities)
  })
}
