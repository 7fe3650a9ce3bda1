import { createLexicalEmbedder } from '@pinfold/embedders'
import type { TestApi } from '@pinfold/testing/test-api'
import { startVectorApi } from '@pinfold/testing/vectors'
import { PinataSDK, type UploadResponse, type VectorizeQueryResponse } from 'pinata'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { serveOverHttp } from '../support/over-http.js'
import { pinataFor } from '../support/sdk.js'

const DOCS = [
  'The garden needs watering: tomatoes and roses wilt in the summer heat.',
  'Invoice 7731 for the bicycle repair, paid by card.',
  'Our cat sleeps on the sofa all afternoon and chases mice at night.',
]

describe('official SDK - vectors', () => {
  let server: TestApi
  let pinata: PinataSDK
  let groupId: string
  let docs: UploadResponse[]
  beforeAll(async () => {
    // a small, fast embedder: the default local one loads a large word-vector model
    server = await serveOverHttp(await startVectorApi({ embedder: createLexicalEmbedder() }))
    pinata = pinataFor(server.url, await server.token())
    groupId = (await pinata.groups.private.create({ name: 'sdk-vectors' })).id
    docs = []
    for (const [i, text] of DOCS.entries()) {
      const builder = pinata.upload.private
        .file(new File([text], `doc-${i}.txt`, { type: 'text/plain' }))
        .group(groupId)
      // the first two through the upload builder, the last through files.private.vectorize
      docs.push(await (i < 2 ? builder.vectorize() : builder))
    }
  })
  afterAll(() => server.close())

  it('upload.private.file().vectorize() and files.private.vectorize - mark files vectorized', async () => {
    expect(docs.slice(0, 2).map((d) => d.vectorized)).toEqual([true, true])
    expect(await pinata.files.private.vectorize(docs[2]!.id)).toMatchObject({ status: true })
    const stored = await pinata.files.private.list().group(groupId).all()
    expect(stored.map((f) => (f as { vectorized?: boolean }).vectorized)).toEqual([true, true, true])
  })

  it('files.private.queryVectors - returns {count, matches} with the best match first', async () => {
    const result = (await pinata.files.private.queryVectors({
      groupId,
      query: 'bicycle repair invoice',
    })) as VectorizeQueryResponse
    expect(result.count).toBe(result.matches.length)
    expect(result.matches[0]).toEqual({ file_id: docs[1]!.id, cid: docs[1]!.cid, score: expect.any(Number) })
  })

  it('files.private.queryVectors({returnFile: true}) - returns the best file content', async () => {
    const result = await pinata.files.private.queryVectors({ groupId, query: 'cat chases mice', returnFile: true })
    expect(result).toEqual({ data: DOCS[2], contentType: 'text/plain' })
  })

  it('files.private.deleteVectors - the file no longer matches queries', async () => {
    expect(await pinata.files.private.deleteVectors(docs[0]!.id)).toMatchObject({ status: true })
    const result = (await pinata.files.private.queryVectors({
      groupId,
      query: 'garden tomatoes roses',
    })) as VectorizeQueryResponse
    expect(result.matches.map((m) => m.file_id)).not.toContain(docs[0]!.id)
  })
})

describe('official SDK - vectors from upload to query', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await serveOverHttp(await startVectorApi({ embedder: createLexicalEmbedder() }))
  })
  afterAll(() => server.close())

  it('SDK - upload.private.file().group().vectorize() then files.private.queryVectors()', async () => {
    const pinata = new PinataSDK({
      pinataJwt: await server.token(),
      endpointUrl: `${server.url}/v3`,
      uploadUrl: `${server.url}/v3`,
    })
    const group = await pinata.groups.private.create({ name: 'sdk docs' })
    const uploaded = []
    for (const [i, text] of DOCS.entries()) {
      uploaded.push(
        await pinata.upload.private
          .file(new File([text], `doc-${i}.txt`, { type: 'text/plain' }))
          .group(group.id)
          .vectorize(),
      )
    }
    expect(uploaded.map((u) => (u as { vectorized?: boolean }).vectorized)).toEqual([true, true, true])
    const result = await pinata.files.private.queryVectors({ groupId: group.id, query: 'cat chases mice' })
    expect(result).toMatchObject({ count: 3, matches: expect.any(Array) })
    expect((result as { matches: { file_id: string }[] }).matches[0]!.file_id).toBe(uploaded[2]!.id)
    expect(await pinata.files.private.deleteVectors(uploaded[2]!.id)).toEqual({ success: true, status: true })
  })
})
