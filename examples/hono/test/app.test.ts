import type { AddressInfo } from 'node:net'
import { type ServerType, serve } from '@hono/node-server'
import { mintToken, SCOPES } from '@pinfold/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../src/app.js'

const SECRET = 'example-secret-at-least-32-bytes-long!!'
const HELLO_CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'

function helloForm(): FormData {
  const form = new FormData()
  form.append('file', new Blob(['hello world'], { type: 'text/plain' }), 'hello.txt')
  form.append('network', 'public')
  return form
}

describe('Hono example', () => {
  let server: ServerType
  let origin: string
  let auth: { authorization: string }

  beforeAll(async () => {
    const app = createApp({ secret: SECRET })
    const info = await new Promise<AddressInfo>((resolve) => {
      // overrideGlobalObjects: false — by default @hono/node-server replaces the global Request with
      // its own, which every later file in this worker (vitest's isolate: false) would then see
      server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false }, resolve)
    })
    origin = `http://127.0.0.1:${info.port}`
    auth = {
      authorization: `Bearer ${await mintToken(SECRET, { sub: 'alice', org: 'acme', scopes: SCOPES, expiresIn: '1h' })}`,
    }
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('upload - stores a multipart file under the prefix and answers its CID', async () => {
    const res = await fetch(`${origin}/pinfold/v3/files`, { method: 'POST', headers: auth, body: helloForm() })
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { cid: string; size: number } }
    expect(data.cid).toBe(HELLO_CID)
    expect(data.size).toBe(11)
  })

  it('list - returns the uploaded file', async () => {
    const form = helloForm()
    form.set('name', 'listed.txt')
    await fetch(`${origin}/pinfold/v3/files`, { method: 'POST', headers: auth, body: form })
    const res = await fetch(`${origin}/pinfold/v3/files/public`, { headers: auth })
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { files: { cid: string; name: string }[] } }
    expect(data.files).toContainEqual(expect.objectContaining({ cid: HELLO_CID, name: 'listed.txt' }))
  })

  it('auth - answers 401 without a token', async () => {
    const res = await fetch(`${origin}/pinfold/v3/files/public`)
    expect(res.status).toBe(401)
  })

  it('sign - returns an upload URL under the mount prefix that accepts an upload', async () => {
    const res = await fetch(`${origin}/pinfold/v3/files/sign`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ expires: 60 }),
    })
    expect(res.status).toBe(200)
    const { data: url } = (await res.json()) as { data: string }
    expect(url.startsWith(`${origin}/pinfold/v3/files/`)).toBe(true)
    // The signed URL is the credential: no Authorization header.
    const upload = await fetch(url, { method: 'POST', body: helloForm() })
    expect(upload.status).toBe(200)
    expect(((await upload.json()) as { data: { cid: string } }).data.cid).toBe(HELLO_CID)
  })

  it('mount - the API answers only under the prefix and the host keeps its own routes', async () => {
    expect((await fetch(`${origin}/v3/files/public`, { headers: auth })).status).toBe(404)
    const health = await fetch(`${origin}/health`)
    expect(await health.json()).toEqual({ ok: true })
  })
})
