import { describe, expect, it } from 'vitest'
import { NodeRequest } from '../src/node-request.js'

function nodeRequest(method: string, body: string | null = null) {
  const controller = new AbortController()
  const request = new NodeRequest({
    method,
    url: new URL('http://files.example.com/v3/files?limit=2'),
    headers: new Headers({ 'content-type': 'application/json', authorization: 'Bearer t' }),
    signal: controller.signal,
    body: body === null ? null : new Blob([body]).stream(),
  }) as unknown as Request
  return { request, controller }
}

describe('NodeRequest (the bridge request)', () => {
  it('request - is a Request to instanceof and answers what the handler reads without building one', () => {
    const { request, controller } = nodeRequest('GET')
    expect(request).toBeInstanceOf(Request)
    expect(request.method).toBe('GET')
    expect(request.url).toBe('http://files.example.com/v3/files?limit=2')
    expect(request.headers.get('authorization')).toBe('Bearer t')
    expect(request.body).toBeNull()
    expect(request.signal.aborted).toBe(false)
    controller.abort()
    expect(request.signal.aborted).toBe(true)
  })

  it('request - every other property and method of Request works, from the same method, url, headers and body', async () => {
    const { request } = nodeRequest('POST', '{"name":"x"}')
    expect(request.redirect).toBe('follow')
    expect(request.cache).toBe('default')
    expect(request.bodyUsed).toBe(false)
    const copy = request.clone()
    expect(copy.url).toBe(request.url)
    expect(copy.headers.get('content-type')).toBe('application/json')
    expect(await request.json()).toEqual({ name: 'x' })
    expect(request.bodyUsed).toBe(true)
    expect(await copy.text()).toBe('{"name":"x"}')
  })

  it('request - reading the body stream directly marks it used', async () => {
    const { request } = nodeRequest('PUT', 'bytes')
    const reader = request.body!.getReader()
    expect(request.bodyUsed).toBe(true)
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('bytes')
  })
})
