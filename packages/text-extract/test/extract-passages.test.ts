import { PDFDocument, StandardFonts } from 'pdf-lib'
import { describe, expect, it } from 'vitest'
import { extractPassages } from '../src/index.js'

async function* chunks(...parts: (string | Uint8Array)[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield typeof part === 'string' ? new TextEncoder().encode(part) : part
}

const extract = (content: string | Uint8Array, mimeType: string, fileName?: string) =>
  extractPassages(chunks(content), { mimeType, fileName })

async function makePdf(pages: string[][]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const lines of pages) {
    const page = doc.addPage()
    lines.forEach((line, i) => {
      page.drawText(line, { x: 50, y: 700 - i * 20, font, size: 12 })
    })
  }
  return doc.save()
}

describe('extractPassages', () => {
  it('text - returns plain text, honouring the charset parameter', async () => {
    expect(await extract('Hello   world.\n\nSecond line.', 'text/plain')).toEqual(['Hello world. Second line.'])
    const latin1 = Uint8Array.from([0x63, 0x61, 0x66, 0xe9])
    expect(await extract(latin1, 'text/plain; charset=ISO-8859-1')).toEqual(['café'])
  })

  it('text - reassembles multi-byte characters split across chunks', async () => {
    const bytes = new TextEncoder().encode('naïve café')
    expect(await extractPassages(chunks(bytes.subarray(0, 3), bytes.subarray(3)), { mimeType: 'text/plain' })).toEqual([
      'naïve café',
    ])
  })

  it('markdown - drops markup and link targets', async () => {
    const [passage] = await extract(
      '# Title\n\nSome **bold** text with [a link](https://example.com).\n\n- item one',
      'text/markdown',
    )
    expect(passage).toBe('Title Some bold text with a link. item one')
  })

  it('json - flattens keys and scalar values', async () => {
    const json = JSON.stringify({ title: 'Annual report', meta: { year: 2024, tags: ['finance', 'audit'] } })
    expect(await extract(json, 'application/json')).toEqual(['title: Annual report meta year: 2024 tags finance audit'])
  })

  it('json - rejects malformed JSON with INVALID_INPUT', async () => {
    await expect(extract('{"a":', 'application/json')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('csv - turns rows into lines of cells', async () => {
    const csv = 'name,city\n"Smith, Ann",Paris\n\nBob,"Rome"\n'
    const [passage] = await extractPassages(chunks(csv), { mimeType: 'text/csv', passageChars: 30, overlapChars: 0 })
    expect(passage).toBe('name, city Smith, Ann, Paris')
    expect(await extract('a\tb\nc\td', 'text/tab-separated-values')).toEqual(['a, b c, d'])
  })

  it('html - strips tags, scripts and styles and decodes entities', async () => {
    const html =
      '<html><head><title>Fish &amp; Chips</title><style>p{color:red}</style></head>' +
      '<body><h1>Menu</h1><p>Cod &lt;fresh&gt; &eacute;t&eacute;<script>alert("x")</script></p><div>Open&nbsp;daily</div></body></html>'
    expect(await extract(html, 'text/html; charset=utf-8')).toEqual(['Fish & Chips Menu Cod <fresh> été Open daily'])
  })

  it('html - a head left open ends at <body>, and void elements break lines', async () => {
    const html = '<html><head><title>Notes</title><meta charset="utf-8"><body>First line<br>second line<hr/>third'
    expect(await extractPassages(chunks(html), { mimeType: 'text/html', passageChars: 15, overlapChars: 0 })).toEqual([
      'Notes',
      'First line',
      'second line',
      'third',
    ])
  })

  it('html - nesting 300,000 deep takes linear time', async () => {
    // htmlparser2's Parser is quadratic in the depth (2.3 s at 100,000, 98 s here); the tokenizer takes milliseconds
    const depth = 300_000
    const started = performance.now()
    expect(await extract(`${'<div>'.repeat(depth)}Deep.${'</div>'.repeat(depth)}`, 'text/html')).toEqual(['Deep.'])
    expect(performance.now() - started).toBeLessThan(3000)
  })

  it('json - nesting 100,000 deep does not overflow the stack', async () => {
    const json = `${'[{"k":'.repeat(50_000)}"deepest"${'}]'.repeat(50_000)}`
    const passages = await extract(json, 'application/json')
    expect(passages.join(' ')).toMatch(/^k k k .* k: deepest$/)
  })

  it('xml - keeps element text', async () => {
    expect(
      await extract('<?xml version="1.0"?><note><to>Ann</to><body>Call me</body></note>', 'application/xml'),
    ).toEqual(['Ann Call me'])
  })

  it('pdf - extracts the text of every page', async () => {
    const pdf = await makePdf([['Invoice 1042 for consulting.', 'Due in thirty days.'], ['Page two has the terms.']])
    const [passage] = await extract(pdf, 'application/pdf')
    expect(passage).toMatch(/Invoice 1042 for consulting\.\s+Due in thirty days\.\s+Page two has the terms\./)
  })

  it('pdf - reads at most maxPages pages', async () => {
    const pdf = await makePdf([['First page.'], ['Second page.'], ['Third page.']])
    const passages = await extractPassages(chunks(pdf), { mimeType: 'application/pdf', maxPages: 2 })
    expect(passages.join(' ')).toMatch(/First page\.\s+Second page\./)
    expect(passages.join(' ')).not.toContain('Third')
  })

  it('pdf - rejects bytes that are not a PDF with INVALID_INPUT', async () => {
    await expect(extract('not a pdf at all', 'application/pdf')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('type - guesses from the file name when the MIME type is generic', async () => {
    expect(await extract('# Hi', 'application/octet-stream', 'notes.md')).toEqual(['Hi'])
  })

  it('type - rejects unsupported types with INVALID_INPUT naming the type', async () => {
    await expect(extract('GIF89a', 'image/gif', 'cat.gif')).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/^cannot extract text from image\/gif: cat\.gif/),
    })
    await expect(extract('x', 'application/octet-stream', 'blob.bin')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('maxBytes - stops pulling the stream once the cap is reached', async () => {
    let pulled = 0
    async function* endless() {
      while (true) {
        pulled++
        yield new TextEncoder().encode('word '.repeat(200)) // 1000 bytes
      }
    }
    const passages = await extractPassages(endless(), { mimeType: 'text/plain', maxBytes: 4500 })
    expect(pulled).toBe(5)
    expect(passages.join(' ').split(' ').length).toBeLessThanOrEqual(900 + 200) // 4500 bytes of words, plus overlap
    expect(passages.every((p) => p.length <= 1000)).toBe(true)
  })

  it('maxBytes - refuses a JSON document cut off by the cap with PAYLOAD_TOO_LARGE', async () => {
    const json = JSON.stringify({ text: 'x'.repeat(100) })
    await expect(extractPassages(chunks(json), { mimeType: 'application/json', maxBytes: 50 })).rejects.toMatchObject({
      code: 'PAYLOAD_TOO_LARGE',
    })
  })

  it('extractPassages - rejects an overlap not smaller than the passage', async () => {
    await expect(
      extractPassages(chunks('x'), { mimeType: 'text/plain', passageChars: 100, overlapChars: 100 }),
    ).rejects.toMatchObject({ code: 'INVALID_INPUT', message: expect.stringMatching(/overlapChars/) })
  })
})
