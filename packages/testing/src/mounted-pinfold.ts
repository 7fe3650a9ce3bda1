import { once } from 'node:events'
import type { AddressInfo, Server } from 'node:net'
import { mintToken, SCOPES } from '@pinfold/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HELLO_WORLD_CID } from './bytes.js'

/** What the suite's tokens and upload URLs are signed with; `start` gives it to the host's Pinfold. */
const SECRET = 'example-secret-at-least-32-bytes-long!!'

/** A host app with Pinfold mounted in it, started for one suite. */
export interface PinfoldHost {
  /** Where the host answers (`http://127.0.0.1:<port>`): the links Pinfold returns start with it. */
  origin: string
  /**
   * How a request reaches the host. Without it, `fetch` over HTTP; a route handler that no server
   * runs here (Next's) is called with the Request instead, as its framework would call it.
   */
  send?(request: Request): Promise<Response>
  close?(): Promise<void>
}

export interface MountedPinfoldOptions {
  /** Starts the host, its Pinfold verifying bearer tokens and signing upload URLs with `secret`. */
  start(secret: string): Promise<PinfoldHost>
  /** Where the host mounts Pinfold (`/pinfold`), or `''` where Pinfold answers every path. */
  basePath: string
  /**
   * A route the host answers itself beside a `basePath` mount, and the JSON it answers with. Given,
   * the suite checks that the API answers only under `basePath` and leaves that route to the host.
   */
  hostRoute?: { path: string; json: unknown }
}

/** A host whose `server` listens (or is about to) on an IPv4 address: its origin, and its closing. */
export async function listeningHost(server: Server): Promise<PinfoldHost> {
  if (!server.listening) await once(server, 'listening')
  const { address, port } = server.address() as AddressInfo
  return {
    origin: `http://${address}:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

function helloForm(name?: string): FormData {
  const form = new FormData()
  form.append('file', new Blob(['hello world'], { type: 'text/plain' }), 'hello.txt')
  form.append('network', 'public')
  if (name) form.append('name', name)
  return form
}

/**
 * What every host that mounts Pinfold must keep, whatever its framework: uploads stream through it
 * untouched, the API answers every method under `basePath` (and only there), and the links Pinfold
 * returns carry the mount. Each example runs it with how to start its app; what only one framework
 * needs checking stays in that example's own tests.
 */
export function describeMountedPinfold(name: string, { start, basePath, hostRoute }: MountedPinfoldOptions): void {
  describe(`Pinfold mounted at ${basePath || '/'} in ${name}`, () => {
    let host: PinfoldHost | undefined
    let origin: string
    /** Where the API answers: `origin` and `basePath`. */
    let api: string
    let auth: { authorization: string }
    const send = (url: string, init?: RequestInit) => {
      const request = new Request(url, init)
      return host?.send ? host.send(request) : fetch(request)
    }

    beforeAll(async () => {
      host = await start(SECRET)
      origin = host.origin
      api = `${origin}${basePath}`
      auth = {
        authorization: `Bearer ${await mintToken(SECRET, { sub: 'alice', org: 'acme', scopes: SCOPES, expiresIn: '1h' })}`,
      }
    })
    afterAll(() => host?.close?.())

    it('upload - stores a multipart file under the mount and answers its CID', async () => {
      const res = await send(`${api}/v3/files`, { method: 'POST', headers: auth, body: helloForm() })
      expect(res.status).toBe(200)
      const { data } = (await res.json()) as { data: { cid: string; size: number } }
      expect(data.cid).toBe(HELLO_WORLD_CID)
      expect(data.size).toBe(11)
    })

    it('list - returns the uploaded file', async () => {
      await send(`${api}/v3/files`, { method: 'POST', headers: auth, body: helloForm('listed.txt') })
      const res = await send(`${api}/v3/files/public`, { headers: auth })
      expect(res.status).toBe(200)
      const { data } = (await res.json()) as { data: { files: { cid: string; name: string }[] } }
      expect(data.files).toContainEqual(expect.objectContaining({ cid: HELLO_WORLD_CID, name: 'listed.txt' }))
    })

    it('auth - answers 401 without a token', async () => {
      const res = await send(`${api}/v3/files/public`)
      expect(res.status).toBe(401)
    })

    it('sign - returns an upload URL under the mount that accepts an upload', async () => {
      const res = await send(`${api}/v3/files/sign`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ expires: 60 }),
      })
      expect(res.status).toBe(200)
      const { data: url } = (await res.json()) as { data: string }
      expect(url.startsWith(`${api}/v3/files/`)).toBe(true)
      // The signed URL is the credential: no Authorization header.
      const upload = await send(url, { method: 'POST', body: helloForm() })
      expect(upload.status).toBe(200)
      expect(((await upload.json()) as { data: { cid: string } }).data.cid).toBe(HELLO_WORLD_CID)
    })

    // Hosts route HEAD and OPTIONS apart from GET and POST (Fastify adds HEAD routes of its own, Next
    // calls a separate export for each method): both must still reach Pinfold.
    it('methods - HEAD and a CORS preflight reach Pinfold under the mount', async () => {
      const head = await send(`${api}/v3/files/public`, { method: 'HEAD', headers: auth })
      expect(head.status).toBe(200)
      const preflight = await send(`${api}/v3/files`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    })

    if (hostRoute) {
      it('mount - the API answers only under the prefix and the host keeps its own routes', async () => {
        expect((await send(`${origin}/v3/files/public`, { headers: auth })).status).toBe(404)
        const own = await send(`${origin}${hostRoute.path}`)
        expect(await own.json()).toEqual(hostRoute.json)
      })
    }
  })
}
