import { mintToken, SCOPES } from '@pinfold/core'
import { beforeAll, describe, expect, it } from 'vitest'

// Next.js calls a route handler's exported functions with a standard Request; so do these tests.
// No Next.js server (or install) is needed to exercise exactly what Next would run.
process.env.PINFOLD_AUTH_SECRET = 'example-secret-at-least-32-bytes-long!!'
const route = await import('../src/app/pinfold/[...path]/route.js')

const ORIGIN = 'http://localhost:3000'
const HELLO_CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e'

function helloForm(name?: string): FormData {
  const form = new FormData()
  form.append('file', new Blob(['hello world'], { type: 'text/plain' }), 'hello.txt')
  form.append('network', 'public')
  if (name) form.append('name', name)
  return form
}

describe('Next.js route handler example', () => {
  let auth: { authorization: string }
  beforeAll(async () => {
    const token = await mintToken(process.env.PINFOLD_AUTH_SECRET!, {
      sub: 'alice',
      org: 'acme',
      scopes: SCOPES,
      expiresIn: '1h',
    })
    auth = { authorization: `Bearer ${token}` }
  })

  it('route - exports a handler for every method and opts out of the Edge runtime and caching', () => {
    for (const method of ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const) {
      expect(typeof route[method], method).toBe('function')
    }
    expect(route.runtime).toBe('nodejs')
    expect(route.dynamic).toBe('force-dynamic')
  })

  it('upload - POST stores a multipart file and answers its CID', async () => {
    const res = await route.POST(
      new Request(`${ORIGIN}/pinfold/v3/files`, { method: 'POST', headers: auth, body: helloForm() }),
    )
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { cid: string; size: number } }
    expect(data.cid).toBe(HELLO_CID)
    expect(data.size).toBe(11)
  })

  it('list - GET returns the uploaded file', async () => {
    await route.POST(
      new Request(`${ORIGIN}/pinfold/v3/files`, { method: 'POST', headers: auth, body: helloForm('listed.txt') }),
    )
    const res = await route.GET(new Request(`${ORIGIN}/pinfold/v3/files/public`, { headers: auth }))
    expect(res.status).toBe(200)
    const { data } = (await res.json()) as { data: { files: { cid: string; name: string }[] } }
    expect(data.files).toContainEqual(expect.objectContaining({ cid: HELLO_CID, name: 'listed.txt' }))
  })

  it('auth - answers 401 without a token', async () => {
    const res = await route.GET(new Request(`${ORIGIN}/pinfold/v3/files/public`))
    expect(res.status).toBe(401)
  })

  it('sign - returns an upload URL under /pinfold that accepts an upload', async () => {
    const res = await route.POST(
      new Request(`${ORIGIN}/pinfold/v3/files/sign`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ expires: 60 }),
      }),
    )
    expect(res.status).toBe(200)
    const { data: url } = (await res.json()) as { data: string }
    expect(url.startsWith(`${ORIGIN}/pinfold/v3/files/`)).toBe(true)
    // The signed URL is the credential: no Authorization header.
    const upload = await route.POST(new Request(url, { method: 'POST', body: helloForm() }))
    expect(upload.status).toBe(200)
    expect(((await upload.json()) as { data: { cid: string } }).data.cid).toBe(HELLO_CID)
  })

  it('options - OPTIONS answers a CORS preflight', async () => {
    const res = await route.OPTIONS(
      new Request(`${ORIGIN}/pinfold/v3/files`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      }),
    )
    expect(res.status).toBe(204)
    expect(res.headers.get('access-control-allow-origin')).toBe('*')
  })
})
