import { Buffer } from 'node:buffer'
import { constants, inflateSync } from 'node:zlib'
import { PinfoldError } from '@pinfold/interface'

/**
 * Refuses a PDF whose deflated streams inflate to more than `maxInflatedBytes` together. PDF.js has
 * no such limit and inflates a content stream whole: 184 KB that inflate to 60 MiB kept it busy for
 * 17 s. zlib measures it natively and stops at the limit. Image streams are not counted (text
 * extraction never decodes them); other filters than Flate are left to the extraction's time limit.
 */
/** How far before a `stream` keyword its dictionary is looked for; real dictionaries are far smaller. */
const DICTIONARY_WINDOW = 4096

export function checkInflatedSize(pdf: Uint8Array, maxInflatedBytes: number): void {
  // latin1: one character per byte, so string indexes are byte offsets
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString('latin1')
  let total = 0
  // Streams do not nest: a keyword inside the last stream's data is data, so each byte is scanned
  // once forward; the dictionary is looked for in a bounded window before its keyword.
  let resumeAt = 0
  for (const match of text.matchAll(/\bstream\r?\n/g)) {
    if (match.index < resumeAt) continue
    const start = match.index + match[0].length
    const end = text.indexOf('endstream', start)
    if (end < 0) break
    resumeAt = end
    const window = text.slice(Math.max(0, match.index - DICTIONARY_WINDOW), match.index)
    const dictionary = window.slice(Math.max(0, window.lastIndexOf('obj')))
    if (!dictionary.includes('/FlateDecode') || /\/Subtype\s*\/Image/.test(dictionary)) continue
    total += inflatedLength(pdf.subarray(start, end), maxInflatedBytes - total + 1)
    if (total > maxInflatedBytes) {
      throw new PinfoldError(
        'PAYLOAD_TOO_LARGE',
        `cannot extract text from PDF: its streams inflate to more than ${maxInflatedBytes} bytes`,
        { details: { maxInflatedBytes } },
      )
    }
  }
}

/** Bytes `deflated` inflates to, at most `limit`; 0 for data that is not deflated (PDF.js judges it). */
function inflatedLength(deflated: Uint8Array, limit: number): number {
  try {
    // a sync flush at the end counts a stream cut short too, as PDF.js reads what it can of one
    return inflateSync(deflated, { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH }).length
  } catch (err) {
    return (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE' ? limit : 0
  }
}
