import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'

export interface S3Endpoint {
  endpoint: string
  region: string
  accessKeyId: string
  secretAccessKey: string
}

/**
 * A client for test servers. The checksum options matter: by default the SDK sends streamed bodies
 * `aws-chunked` with a trailing checksum, which s3rver stores verbatim (corrupting every object).
 */
export function testClient(target: S3Endpoint, extra: { maxAttempts?: number } = {}): S3Client {
  return new S3Client({
    endpoint: target.endpoint,
    region: target.region,
    forcePathStyle: true,
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey },
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    ...extra,
  })
}

/** An s3rver in this process, storing into a fresh temp directory, with `bucket` created. */
export async function startS3rver(bucket: string): Promise<S3Endpoint & { client: S3Client; close(): Promise<void> }> {
  const directory = await mkdtemp(path.join(tmpdir(), 'pinfold-s3rver-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory })
  const { port } = await server.run()
  const target = {
    endpoint: `http://127.0.0.1:${port}`,
    region: 'us-east-1',
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
  }
  const client = testClient(target)
  await client.send(new CreateBucketCommand({ Bucket: bucket }))
  return {
    ...target,
    client,
    async close() {
      client.destroy()
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
