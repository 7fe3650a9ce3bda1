import type { S3Client } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createS3BlobStore } from '../src/index.js'
import { fakeClient, startFakeS3 } from './fake-s3.js'

// s3rver cannot paginate on Node 20 (its continuation tokens use DES, which OpenSSL 3 refuses), so
// paging is checked against a scripted server answering two ListObjectsV2 pages.
let fake: Awaited<ReturnType<typeof startFakeS3>>
let client: S3Client
const requests: URL[] = []

beforeAll(async () => {
  fake = await startFakeS3((req) => {
    const url = new URL(req.url ?? '/', 'http://fake')
    requests.push(url)
    const second = url.searchParams.get('continuation-token') === 'page-2'
    const keys = second ? ['app/c/3'] : ['app/a/1', 'app/b/2']
    return { status: 200, body: listPage(keys, second ? undefined : 'page-2') }
  })
  client = fakeClient(fake.port)
})

afterAll(async () => {
  client.destroy()
  await fake.close()
})

it('list - follows continuation tokens and strips the prefix', async () => {
  const store = createS3BlobStore({ client, bucket: 'paged', prefix: 'app/' })
  const listed = []
  for await (const info of store.list({ prefix: 'a' })) listed.push(info)
  expect(listed).toEqual([
    { key: 'a/1', size: 7 },
    { key: 'b/2', size: 7 },
    { key: 'c/3', size: 7 },
  ])
  expect(requests.map((url) => url.searchParams.get('prefix'))).toEqual(['app/a', 'app/a'])
})

function listPage(keys: string[], next: string | undefined): string {
  const contents = keys.map((key) => `<Contents><Key>${key}</Key><Size>7</Size></Contents>`).join('')
  return (
    '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>paged</Name>' +
    `<KeyCount>${keys.length}</KeyCount><IsTruncated>${next !== undefined}</IsTruncated>` +
    (next ? `<NextContinuationToken>${next}</NextContinuationToken>` : '') +
    `${contents}</ListBucketResult>`
  )
}
