import { deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { checkInflatedSize } from '../src/pdf-inflated-size.js'

const pdfObject = (body: Uint8Array) =>
  Buffer.concat([Buffer.from('1 0 obj\n<< /Filter /FlateDecode >>\nstream\n'), body, Buffer.from('\nendstream\n')])

describe('checkInflatedSize', () => {
  it('counts Flate streams together and refuses past the limit', () => {
    const stream = pdfObject(deflateSync(Buffer.alloc(600_000)))
    expect(() => checkInflatedSize(Buffer.concat([stream, stream]), 1_000_000)).toThrow(/inflate to more than/)
    expect(() => checkInflatedSize(stream, 1_000_000)).not.toThrow()
  })

  it('scans in time linear in the input: many "stream" keywords, no "obj", one distant "endstream"', () => {
    // each keyword once looked back to the file's start for "obj" and ahead to its end for "endstream"
    const crafted = Buffer.from(`${'stream\n'.repeat(300_000)}endstream`)
    const started = performance.now()
    checkInflatedSize(crafted, 50 * 1024 * 1024)
    expect(performance.now() - started).toBeLessThan(2_000) // 154 s before the scan was bounded (2.1 MB)
  })
})
