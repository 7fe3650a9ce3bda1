import { isPinfoldError, PinfoldError } from '@pinfold/core'
import { describe, expect, it } from 'vitest'
import { MULTIPART_LIMITS, type MultipartPart, parseMultipart } from '../src/multipart.js'

const encoder = new TextEncoder()
const BOUNDARY = 'b0undary'

/** A request whose body is `chunks`, each handed out by one pull, counting the pulls and a cancel. */
function requestOf(chunks: (string | Uint8Array)[], contentType = `multipart/form-data; boundary=${BOUNDARY}`) {
  const bytes = chunks.map((c) => (typeof c === 'string' ? encoder.encode(c) : c))
  const seen = { pulls: 0, cancelled: false, chunks: bytes }
  let next = 0
  const body = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        seen.pulls++
        if (next < bytes.length) controller.enqueue(bytes[next++]!)
        else controller.close()
      },
      cancel() {
        seen.cancelled = true
      },
    },
    { highWaterMark: 0 },
  )
  const request = new Request('http://localhost/v3/files', {
    method: 'POST',
    body,
    headers: { 'content-type': contentType },
    duplex: 'half',
  } as RequestInit)
  return { request, seen }
}

const part = (disposition: string, body: string, headers = '') =>
  `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${headers}\r\n${body}\r\n`
const end = `--${BOUNDARY}--\r\n`

type Collected =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; mimeType: string; text: string }

async function collect(request: Request): Promise<Collected[]> {
  const out: Collected[] = []
  for await (const p of parseMultipart(request)) {
    if (p.kind === 'field') out.push(p)
    else {
      const chunks: Uint8Array[] = []
      for await (const chunk of p.content) chunks.push(chunk)
      const text = new TextDecoder().decode(Buffer.concat(chunks))
      out.push({ kind: 'file', name: p.name, filename: p.filename, mimeType: p.mimeType, text })
    }
  }
  return out
}

async function failure(request: Request): Promise<{ code: string; message: string }> {
  try {
    await collect(request)
  } catch (error) {
    expect(isPinfoldError(error), String(error)).toBe(true)
    const { code, message } = error as { code: string; message: string }
    return { code, message }
  }
  throw new Error('the body was accepted')
}

describe('parseMultipart', () => {
  it('fields and files in body order, with their names, filenames and types', async () => {
    const { request } = requestOf([
      part('form-data; name="network"', 'public'),
      part('form-data; name="file"; filename="a.txt"', 'hello', 'Content-Type: Text/Plain; charset=utf-8\r\n'),
      part('form-data; name="file"; filename="dir/b.bin"', 'bytes'),
      part('form-data; name="keyvalues"', '{"a":"é"}'),
      end,
    ])
    expect(await collect(request)).toEqual([
      { kind: 'field', name: 'network', value: 'public' },
      { kind: 'file', name: 'file', filename: 'a.txt', mimeType: 'text/plain', text: 'hello' },
      // no Content-Type: RFC 7578's default, as busboy answered
      { kind: 'file', name: 'file', filename: 'dir/b.bin', mimeType: 'text/plain', text: 'bytes' },
      { kind: 'field', name: 'keyvalues', value: '{"a":"é"}' },
    ])
  })

  it.each([
    ['raw UTF-8 (CJK, a path)', 'filename="日本語/ファイル.txt"', '日本語/ファイル.txt'],
    ['raw UTF-8 (emoji, U+202F)', 'filename="🙂 Screenshot 10.01\u202fAM.png"', '🙂 Screenshot 10.01\u202fAM.png'],
    ['Latin-1 range', 'filename="café.txt"', 'café.txt'],
    [
      'filename* (RFC 8187), preferred over filename',
      `filename="x.txt"; filename*=UTF-8''%E6%97%A5%E6%9C%AC.txt`,
      '日本.txt',
    ],
    ['an escaped quote', 'filename="a\\"b;c.txt"', 'a"b;c.txt'],
    ['an unquoted name', 'filename=plain.txt', 'plain.txt'],
    ['spaces kept whole, even alone', 'filename=" a/ "', ' a/ '],
    ['parameter names in any case', 'FileName="upper.txt"', 'upper.txt'],
    [
      'a filename* in a charset nobody knows: filename',
      `filename="fallback.txt"; filename*=x-unknown''abc`,
      'fallback.txt',
    ],
  ])('filenames: %s', async (_what, param, expected) => {
    const { request } = requestOf([part(`form-data; name="file"; ${param}`, 'x'), end])
    const [file] = await collect(request)
    expect(file).toMatchObject({ kind: 'file', name: 'file', filename: expected })
  })

  it('an empty filename (an empty file input) is a field, as with busboy', async () => {
    const { request } = requestOf([part('form-data; name="file"; filename=""', ''), end])
    expect(await collect(request)).toEqual([{ kind: 'field', name: 'file', value: '' }])
  })

  it('parts without a form-data disposition or without a name are skipped', async () => {
    const { request } = requestOf([
      `--${BOUNDARY}\r\nContent-Type: text/plain\r\n\r\nno disposition\r\n`,
      part('form-data; filename="nameless.txt"', 'nameless'),
      part('form-data; name="kept"', 'yes'),
      end,
    ])
    expect(await collect(request)).toEqual([{ kind: 'field', name: 'kept', value: 'yes' }])
  })

  it("streams a file part as views of the body's own chunks, reading nothing ahead of its consumer", async () => {
    const piece = new Uint8Array(64 * 1024).fill(0x61)
    const chunks: (string | Uint8Array)[] = [
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big"\r\n\r\n`,
      ...Array.from({ length: 100 }, () => piece),
      `\r\n${end}`,
    ]
    const { request, seen } = requestOf(chunks)
    const parts = parseMultipart(request)
    const file = (await parts.next()).value as MultipartPart & { kind: 'file' }
    const content = file.content[Symbol.asyncIterator]()
    const first = await content.next()
    // the headers chunk and the first file chunk, plus at most the stream's one pending pull
    expect(seen.pulls).toBeLessThanOrEqual(3)
    let bytes = first.value!.byteLength
    let views = 0
    for (let r = await content.next(); !r.done; r = await content.next()) {
      bytes += r.value.byteLength
      if (seen.chunks.some((c) => c.buffer === r.value.buffer)) views++
      expect(seen.pulls).toBeLessThan(100) // never the whole body at once
      if (views > 50) break
    }
    expect(views).toBeGreaterThan(50)
    expect(bytes).toBeGreaterThan(50 * piece.byteLength)
    await parts.return(undefined)
    expect(seen.cancelled).toBe(true)
  })

  it('a file part the consumer skips is read past', async () => {
    const { request } = requestOf([
      part('form-data; name="file"; filename="skipped"', 'x'.repeat(100_000)),
      part('form-data; name="after"', 'seen'),
      end,
    ])
    const names: string[] = []
    for await (const p of parseMultipart(request)) names.push(p.kind === 'field' ? `${p.name}=${p.value}` : p.name)
    expect(names).toEqual(['file', 'after=seen'])
  })

  it('a body split into three chunks at any two places parses the same (delimiters split anywhere)', async () => {
    const body = encoder.encode(
      part('form-data; name="a"', 'value') +
        part('form-data; name="file"; filename="f"', 'abc\r\n--b0undarX-ish') +
        end,
    )
    const whole = await collect(requestOf([body]).request)
    expect(whole).toEqual([
      { kind: 'field', name: 'a', value: 'value' },
      { kind: 'file', name: 'file', filename: 'f', mimeType: 'text/plain', text: 'abc\r\n--b0undarX-ish' },
    ])
    for (let first = 1; first < body.length; first++) {
      for (let second = first; second < body.length; second += first < 100 ? 7 : 1) {
        const pieces = [body.subarray(0, first), body.subarray(first, second), body.subarray(second)]
        expect(await collect(requestOf(pieces).request), `cut at ${first}, ${second}`).toEqual(whole)
      }
    }
  })

  it('limits: too many parts and too many fields are 413, a field too large is 400', async () => {
    const many = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join('')
    const parts = requestOf([
      many(MULTIPART_LIMITS.parts + 1, (i) => part(`form-data; name="f${i}"; filename="x"`, '')),
      end,
    ])
    expect(await failure(parts.request)).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'too many parts in the multipart body',
    })
    const fields = requestOf([many(MULTIPART_LIMITS.fields + 1, (i) => part(`form-data; name="f${i}"`, 'v')), end])
    expect(await failure(fields.request)).toEqual({
      code: 'PAYLOAD_TOO_LARGE',
      message: 'too many fields in the multipart body',
    })
    const large = requestOf([part('form-data; name="keyvalues"', 'x'.repeat(MULTIPART_LIMITS.fieldSize + 1)), end])
    expect(await failure(large.request)).toEqual({
      code: 'INVALID_INPUT',
      message: `multipart field keyvalues exceeds ${MULTIPART_LIMITS.fieldSize} bytes`,
    })
  })

  it.each([
    ['truncated in a file', [part('form-data; name="file"; filename="a"', 'partial').slice(0, -2)]],
    ['truncated in the headers', [`--${BOUNDARY}\r\nContent-Disposition: form-da`]],
    ['no boundary at all', ['just some bytes']],
    ['empty', []],
    ['part headers over 16 KiB', [`--${BOUNDARY}\r\nX-Long: ${'a'.repeat(17_000)}\r\n\r\nx\r\n${end}`]],
    ['a header line without a colon', [`--${BOUNDARY}\r\nnot a header\r\n\r\nx\r\n${end}`]],
    ['a filename* that is not UTF-8', [part(`form-data; name="file"; filename*=ISO-8859-1''caf%E9.txt`, 'x'), end]],
  ])('malformed: %s is INVALID_INPUT', async (_what, chunks) => {
    const { request } = requestOf(chunks as string[])
    expect((await failure(request)).code).toBe('INVALID_INPUT')
  })

  it.each([
    ['text/plain', 'text/plain'],
    ['no boundary', 'multipart/form-data'],
    ['urlencoded', 'application/x-www-form-urlencoded'],
  ])('a Content-Type that is not multipart/form-data with a boundary (%s) is INVALID_INPUT', async (_what, type) => {
    const { request } = requestOf([part('form-data; name="a"', 'b'), end], type)
    expect(await failure(request)).toEqual({
      code: 'INVALID_INPUT',
      message: 'Content-Type must be multipart/form-data with a boundary',
    })
  })

  it('a body that fails mid-file fails the file with ABORTED, or with its own PinfoldError', async () => {
    for (const [reason, code] of [
      [new Error('socket hang up'), 'ABORTED'],
      [new PinfoldError('REQUEST_TIMEOUT', 'the request body sent no byte for 60 s'), 'REQUEST_TIMEOUT'],
    ] as const) {
      let sent = false
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (!sent) {
            sent = true
            controller.enqueue(
              encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a"\r\n\r\nsome`),
            )
          } else controller.error(reason)
        },
      })
      const request = new Request('http://localhost/', {
        method: 'POST',
        body,
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        duplex: 'half',
      } as RequestInit)
      expect((await failure(request)).code).toBe(code)
    }
  })

  it('random cuts and byte flips of a valid body never escape as anything but a PinfoldError', async () => {
    const valid = encoder.encode(
      part('form-data; name="network"', 'public') +
        part('form-data; name="file"; filename="a.txt"', 'hello world', 'Content-Type: text/plain\r\n') +
        end,
    )
    let seed = 7
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31
      return seed / 2 ** 31
    }
    for (let i = 0; i < 500; i++) {
      const bytes = valid.slice(0, Math.floor(random() * (valid.length + 1)))
      for (let flips = Math.floor(random() * 3); flips > 0 && bytes.length > 0; flips--) {
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256)
      }
      const cut = Math.floor(random() * bytes.length)
      const { request } = requestOf([bytes.subarray(0, cut), bytes.subarray(cut)])
      try {
        await collect(request)
      } catch (error) {
        expect(isPinfoldError(error), `${error} for ${JSON.stringify(new TextDecoder().decode(bytes))}`).toBe(true)
      }
    }
  })
})
