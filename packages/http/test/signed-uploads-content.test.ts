import { randomBytes } from 'node:crypto'
import { form, startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { pngBytes } from '@pinfold/testing/uploads'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const html = (pad = 0) => `${' '.repeat(pad)}<HTML><script>alert(document.cookie)</script></HTML>`

describe('signed upload URLs - allow_mime_types is checked against the bytes', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  async function signUrl(allow: string[]): Promise<string> {
    const res = await server.api('/v3/files/sign', {
      method: 'POST',
      body: JSON.stringify({ expires: 600, allow_mime_types: allow }),
    })
    return ((await res.json()) as { data: string }).data
  }

  async function postFile(url: string, file: { bytes: Uint8Array | string; name: string; type: string }) {
    const res = await server.fetch(url, { method: 'POST', body: form({ network: 'public' }, file) })
    return { status: res.status, body: (await res.json()) as { data: { mime_type: string }; error?: string } }
  }

  /** Each refusal is a 400 naming the reason, and leaves no blob and no file record. */
  async function expectRefused(url: string, file: { bytes: Uint8Array | string; name: string; type: string }) {
    const blobs = server.blobCount()
    const files = await server.api('/v3/files/public?limit=1000').then((r) => r.json())
    const res = await postFile(url, file)
    expect(res.status, JSON.stringify(res.body)).toBe(400)
    expect(server.blobCount()).toBe(blobs)
    expect(await server.api('/v3/files/public?limit=1000').then((r) => r.json())).toEqual(files)
    return res.body.error!
  }

  it('upload - an HTML page declared image/png is refused under ["image/png"]; a real PNG passes', async () => {
    const url = await signUrl(['image/png'])
    for (const bytes of [html(), html(3), `\n<!DOCTYPE html>${html()}`]) {
      expect(await expectRefused(url, { bytes, name: 'cat.png', type: 'image/png' })).toContain('text/html')
    }
    const png = await postFile(url, { bytes: pngBytes(), name: 'cat.png', type: 'image/png' })
    expect(png.status).toBe(200)
    expect(png.body.data.mime_type).toBe('image/png')
  })

  it('upload - bytes without the signature of the type they are declared as are refused', async () => {
    const url = await signUrl(['image/*'])
    const error = await expectRefused(url, { bytes: 'just words', name: 'cat.png', type: 'image/png' })
    expect(error).toContain('image/png')
    // the declared type is uninformative and the name says .png: the bytes still decide
    await expectRefused(url, { bytes: 'just words', name: 'cat.png', type: 'application/octet-stream' })
    // a GIF passed off as a PNG is still an image
    const gif = Buffer.concat([Buffer.from('GIF89a'), randomBytes(32)])
    expect((await postFile(url, { bytes: gif, name: 'cat.png', type: 'image/png' })).status).toBe(200)
  })

  it('upload - text/plain is allowed only for bytes that do not sniff as something else', async () => {
    const url = await signUrl(['text/plain'])
    const ok = await postFile(url, { bytes: `notes ${Math.random()}`, name: 'notes.txt', type: 'text/plain' })
    expect(ok.status).toBe(200)
    expect(await expectRefused(url, { bytes: html(), name: 'notes.txt', type: 'text/plain' })).toContain('text/html')
    expect(await expectRefused(url, { bytes: pngBytes(), name: 'notes.txt', type: 'text/plain' })).toContain(
      'image/png',
    )
  })

  it('upload - XML bytes pass under an allowed XML type; a list admitting * admits any bytes', async () => {
    const svg = `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" id="${Math.random()}"/>`
    const svgUrl = await signUrl(['image/svg+xml'])
    expect((await postFile(svgUrl, { bytes: svg, name: 'a.svg', type: 'image/svg+xml' })).status).toBe(200)
    const anyUrl = await signUrl(['*'])
    const res = await postFile(anyUrl, { bytes: `${html()}${Math.random()}`, name: 'a.png', type: 'image/png' })
    expect(res.status).toBe(200)
  })

  it('upload - the refusal comes from the first bytes, while the rest of the body is still unsent', async () => {
    const url = new URL(await signUrl(['image/png']))
    const boundary = 'pinfold-sniff'
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`
    const blobs = server.blobCount()
    // 64 KiB of the page, then the body stays open: it never ends
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(head + html().padEnd(64 * 1024, ' ')))
      },
    })
    const res = await Promise.race([
      server.fetch(url, {
        method: 'POST',
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no answer while the body was still open')), 5000).unref(),
      ),
    ])
    const answer = { status: res.status, body: await res.text() }
    expect(answer.status).toBe(400)
    expect(JSON.parse(answer.body).error).toContain('text/html')
    expect(server.blobCount()).toBe(blobs)
  })

  it('tus - a resumable upload through the signed URL is checked the same way at completion', async () => {
    const url = await signUrl(['image/png'])
    const bytes = Buffer.from(html())
    const created = await server.fetch(url, {
      method: 'POST',
      headers: {
        'upload-length': String(bytes.length),
        'upload-metadata': `filename ${btoa('cat.png')},filetype ${btoa('image/png')},network ${btoa('public')}`,
      },
    })
    expect(created.status).toBe(201)
    const files = await server.api('/v3/files/public?limit=1000').then((r) => r.json())
    const res = await server.fetch(created.headers.get('location')!, {
      method: 'PATCH',
      headers: { 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' },
      body: bytes,
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: string }).error).toContain('text/html')
    expect(await server.api('/v3/files/public?limit=1000').then((r) => r.json())).toEqual(files)
  })
})
