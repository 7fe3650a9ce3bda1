import { mkdtemp, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { WORK_DIR } from './bench-file.js'

/**
 * An S3-compatible server (s3rver) for the S3 variant of a benchmark. It runs in the bench process,
 * not the server's, so the server's memory is measured alone. s3rver writes objects to disk
 * through a JavaScript HTTP server of its own, so its speed bounds the figures, not S3's.
 */
export async function startBenchS3(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const directory = await mkdtemp(join(WORK_DIR, 's3rver-'))
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory })
  const { port } = await server.run()
  const endpoint = `http://127.0.0.1:${port}`
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  })
  await client.send(new CreateBucketCommand({ Bucket: 'bench' }))
  client.destroy()
  return {
    env: { BENCH_S3_ENDPOINT: endpoint, BENCH_S3_BUCKET: 'bench' },
    async close() {
      await server.close()
      await rm(directory, { recursive: true, force: true })
    },
  }
}
