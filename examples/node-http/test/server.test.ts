import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mintToken, SCOPES } from '@pinfold/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createPinfoldServer } from '../src/server.js'

const SECRET = 'example-secret-at-least-32-bytes-long!!'
const HELLO_CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'

function helloForm(): FormData {
  const form = new FormData()
  form.append('file', new Blob(['hello world'], { type: 'text/plain' }), 'hello.txt')
  form.append('network', 'public')
  return form
}

describe('node:http example', () => {
  let server: Server
  let origin: string
  let auth: { authorization: string }

  beforeAll(async () => {
    server = createPinfoldServer({ secret: SECRET }).listen(0, '127.0.0.1')
    await new Promise((resolve) => server.once('listening', resolve))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    auth = {
      authorization: `Bearer ${await mintToken(SECRET, { sub: 'alice', org: 'acme', scopes: SCOPES, expiresIn: '1h' })}`,
    }
  })
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

  it('upload - stores a multipart file and answers its CID', async () => {
    const res = await fetch(`${origin}/v3/files`, { method: 'POST', headers: auth, body: helloForm() })
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { cid: string; size: number } }
    expect(data.cid).toBe(HELLO_CID)
    expect(data.size).toBe(11)
  })

  it('list - returns the uploaded file', async () => {
    const form = helloForm()
    form.set('name', 'listed.txt')
    await fetch(`${origin}/v3/files`, { method: 'POST', headers: auth, body: form })
    const res = await fetch(`${origin}/v3/files/public`, { headers: auth })
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { files: { cid: string; name: string }[] } }
    expect(data.files).toContainEqual(expect.objectContaining({ cid: HELLO_CID, name: 'listed.txt' }))
  })

  it('auth - answers 401 without a token', async () => {
    const res = await fetch(`${origin}/v3/files/public`)
    expect(res.status).toBe(401)
  })

  it('sign - returns an upload URL under the server origin that accepts an upload', async () => {
    const res = await fetch(`${origin}/v3/files/sign`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ expires: 60 }),
    })
    expect(res.status).toBe(200)
    const { data: url } = (await res.json()) as { data: string }
    expect(url.startsWith(`${origin}/v3/files/`)).toBe(true)
    // The signed URL is the credential: no Authorization header.
    const upload = await fetch(url, { method: 'POST', body: helloForm() })
    expect(upload.status).toBe(200)
    expect(((await upload.json()) as { data: { cid: string } }).data.cid).toBe(HELLO_CID)
  })
})
