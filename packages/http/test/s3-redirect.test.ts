import { createHash } from 'node:crypto'
import { CarBlockIterator } from '@ipld/car'
import { Denylists, type FileRecord, ListReader } from '@pinfold/core'
import { type S3rverInstance, s3BlobStore, startS3rver } from '@pinfold/testing/storage'
import { form, startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

describe('private downloads from S3', () => {
  let s3: S3rverInstance
  let blobs: Awaited<ReturnType<typeof s3BlobStore>>
  let server: TestApi
  const denylists = new Denylists()
  beforeAll(async () => {
    s3 = await startS3rver()
    blobs = await s3BlobStore(s3)
    // memory records, blobs in S3
    server = await startTestApi({ blobs: blobs.store, denylists })
  })
  afterAll(async () => {
    await server.close()
    await blobs.close()
    await s3.close()
  })

  it('download link - is served by a redirect to a presigned S3 URL, and the bytes match', async () => {
    const bytes = Buffer.from(`private bytes in S3 ${'x'.repeat(100_000)}`)
    const uploaded = await server.api('/v3/files', {
      method: 'POST',
      body: form({ network: 'private' }, { bytes, name: 'report.txt', type: 'text/plain' }),
    })
    const { data: file } = (await uploaded.json()) as { data: { cid: string } }
    const signed = await server.api('/v3/files/private/download_link', {
      method: 'POST',
      body: JSON.stringify({ url: `${server.url}/files/${file.cid}`, expires: 60, method: 'GET' }),
    })
    const { data: link } = (await signed.json()) as { data: string }
    expect(link.startsWith(`${server.url}/files/${file.cid}?`)).toBe(true)

    const redirect = await server.fetch(link, { redirect: 'manual' })
    expect(redirect.status).toBe(302)
    const location = redirect.headers.get('location')!
    expect(location.startsWith(s3.endpoint)).toBe(true)
    expect(location).toContain('X-Amz-Signature=')

    const direct = await fetch(location)
    expect(direct.status).toBe(200)
    expect(direct.headers.get('content-type')).toBe('text/plain')
    const body = Buffer.from(await direct.arrayBuffer())
    expect(createHash('sha256').update(body).digest('hex')).toBe(createHash('sha256').update(bytes).digest('hex'))
  })

  it('download link - a deny rule on a block inside the file stops the redirect: 410, never the blob', async () => {
    // two 256 KiB leaves: the rule names the second, which the presigned blob would hand out
    const bytes = Buffer.alloc(400_000, 7)
    const uploaded = await server.api('/v3/files', {
      method: 'POST',
      body: form({ network: 'private' }, { bytes, name: 'taken-down.bin', type: 'application/octet-stream' }),
    })
    const { data: file } = (await uploaded.json()) as { data: { cid: string } }
    // the file's blocks, read as a private download reads them (resolveHeld takes the record's CID)
    const root = await server.service.gateway.resolveHeld({ cid: file.cid } as FileRecord)
    const car = await server.service.gateway.car(root, [])
    const cids: string[] = []
    for await (const block of await CarBlockIterator.fromIterable(car.stream)) cids.push(block.cid.toString())
    const leaf = cids.at(-1)!
    new ListReader(denylists.list('s3.deny'), () => {}).push(new TextEncoder().encode(`/ipfs/${leaf}\n`))
    const signed = await server.api('/v3/files/private/download_link', {
      method: 'POST',
      body: JSON.stringify({ url: `${server.url}/files/${file.cid}`, expires: 60, method: 'GET' }),
    })
    const { data: link } = (await signed.json()) as { data: string }
    const refused = await server.fetch(link, { redirect: 'manual' })
    expect(refused.status).toBe(410)
    expect(((await refused.json()) as { error: string }).error).toMatch('s3.deny:1')
  })
})
