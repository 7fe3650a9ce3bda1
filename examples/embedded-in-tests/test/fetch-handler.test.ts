import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFileService, createTokenVerifier, mintToken, SCOPES } from '@pinfold/core'
import { createFetchHandler } from '@pinfold/http'
import { describe, expect, it } from 'vitest'
import { createAvatars } from '../src/avatars.js'

const SECRET = 'example-secret-at-least-32-bytes-long!!'
const HELLO_CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'

/** The whole HTTP API as a function: no port, no server, just Request in and Response out. */
function setup() {
  const service = createFileService({ records: createMemoryRecordStore(), blobs: createMemoryBlobStore() })
  const handler = createFetchHandler(service, { auth: createTokenVerifier({ secret: SECRET }) })
  const bearer = async (org: string) => ({
    authorization: `Bearer ${await mintToken(SECRET, { sub: 'alice', org, scopes: SCOPES, expiresIn: '1h' })}`,
  })
  return { service, handler, bearer }
}

describe('the fetch handler without a server', () => {
  it('upload - a multipart Request answers the CID', async () => {
    const { handler, bearer } = setup()
    const form = new FormData()
    form.append('file', new Blob(['hello world'], { type: 'text/plain' }), 'hello.txt')
    form.append('network', 'public')
    const res = await handler(
      new Request('http://pinfold.test/v3/files', { method: 'POST', headers: await bearer('acme'), body: form }),
    )
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: { cid: string } }).data.cid).toBe(HELLO_CID)
  })

  it('list - the API lists what your code stored through the service', async () => {
    const { service, handler, bearer } = setup()
    await createAvatars(service, 'acme').set('alice', new TextEncoder().encode('hello world'), 'image/png')
    const res = await handler(new Request('http://pinfold.test/v3/files/public', { headers: await bearer('acme') }))
    const { data } = (await res.json()) as { data: { files: { cid: string; keyvalues: object }[] } }
    expect(data.files).toEqual([expect.objectContaining({ cid: HELLO_CID, keyvalues: { avatarOf: 'alice' } })])
  })

  it('auth - answers 401 without a token', async () => {
    const { handler } = setup()
    expect((await handler(new Request('http://pinfold.test/v3/files/public'))).status).toBe(401)
  })
})
