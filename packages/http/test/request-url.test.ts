import { describe, expect, it } from 'vitest'
import { parsedUrl, rememberUrl } from '../src/request-url.js'

describe('parsedUrl', () => {
  it('parsedUrl - reuses the URL a bridge remembered for its request', () => {
    const request = new Request('http://a.example/b?c=1')
    const url = new URL('http://a.example/b?c=1')
    rememberUrl(request, url)
    expect(parsedUrl(request)).toBe(url)
  })

  it('parsedUrl - parses any other Request from its url', () => {
    expect(parsedUrl(new Request('http://a.example/b?c=1')).pathname).toBe('/b')
  })
})
