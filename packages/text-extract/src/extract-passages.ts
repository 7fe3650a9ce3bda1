import { PinfoldError, throwIfAborted } from '@pinfold/core'
import { type ContentKind, contentKind, mimeEssence } from './content-kind.js'
import { csvToText } from './csv-text.js'
import { decodeText } from './decode-text.js'
import { htmlToText } from './html-text.js'
import { jsonToText } from './json-text.js'
import { markdownToText } from './markdown-text.js'
import { pdfToText } from './pdf-text.js'
import { readCapped } from './read-capped.js'
import { splitPassages } from './split-passages.js'

export interface ExtractOptions {
  /** The file's MIME type; parameters such as `charset=` are honoured. */
  mimeType: string
  /** Used to guess the type when `mimeType` is empty or `application/octet-stream`, and in messages. */
  fileName?: string
  /** Bytes read from the source at most. Text beyond is ignored; JSON and PDF beyond it are refused. Default 10 MiB. */
  maxBytes?: number
  /** Longest passage, in characters. Default 1000. */
  passageChars?: number
  /** Characters a passage repeats from the previous one. Default 200; less than `passageChars`. */
  overlapChars?: number
  /** PDF pages read at most. Default 500. */
  maxPages?: number
  signal?: AbortSignal
}

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024

/**
 * The readable text of a file, split into overlapping passages ready to embed. Supports `text/*`,
 * Markdown, JSON, CSV/TSV, HTML/XHTML, XML and PDF; anything else is `INVALID_INPUT`.
 */
export async function extractPassages(source: AsyncIterable<Uint8Array>, options: ExtractOptions): Promise<string[]> {
  const maxBytes = positiveInteger(options.maxBytes ?? DEFAULT_MAX_BYTES, 'maxBytes')
  const passageChars = positiveInteger(options.passageChars ?? 1000, 'passageChars')
  const overlapChars = options.overlapChars ?? Math.min(200, Math.floor(passageChars / 5))
  if (!Number.isInteger(overlapChars) || overlapChars < 0 || overlapChars >= passageChars) {
    throw optionError('overlapChars', `must be an integer from 0 to passageChars − 1, got ${overlapChars}`)
  }
  const maxPages = positiveInteger(options.maxPages ?? 500, 'maxPages')

  const kind = contentKind(options.mimeType, options.fileName)
  if (!kind) {
    const what = options.fileName ? `${options.fileName} (${options.mimeType || 'no type'})` : options.mimeType
    throw new PinfoldError(
      'INVALID_INPUT',
      `cannot extract text from ${mimeEssence(options.mimeType) || 'no type'}: ${what} is not text, Markdown, JSON, CSV, HTML, XML or PDF`,
    )
  }

  throwIfAborted(options.signal)
  const { bytes, truncated } = await readCapped(source, maxBytes, options.signal)
  if (truncated && (kind === 'json' || kind === 'pdf')) {
    // A cut-off JSON or PDF cannot be parsed, and guessing at part of it would index a misleading fragment.
    throw new PinfoldError(
      'PAYLOAD_TOO_LARGE',
      `cannot extract text from ${kind.toUpperCase()} larger than ${maxBytes} bytes`,
      {
        details: { maxBytes },
      },
    )
  }
  const text = await toText(kind, bytes, options.mimeType, maxPages)
  throwIfAborted(options.signal)
  return splitPassages(text, passageChars, overlapChars)
}

function toText(kind: ContentKind, bytes: Uint8Array, mimeType: string, maxPages: number): string | Promise<string> {
  if (kind === 'pdf') return pdfToText(bytes, maxPages)
  const text = decodeText(bytes, mimeType)
  switch (kind) {
    case 'text':
      return text
    case 'markdown':
      return markdownToText(text)
    case 'json':
      return jsonToText(text)
    case 'csv':
      return csvToText(text, ',')
    case 'tsv':
      return csvToText(text, '\t')
    case 'html':
      return htmlToText(text)
    case 'xml':
      return htmlToText(text, true)
  }
}

function positiveInteger(value: number, option: string): number {
  if (!Number.isInteger(value) || value <= 0) throw optionError(option, `must be a positive integer, got ${value}`)
  return value
}

function optionError(option: string, problem: string): PinfoldError {
  return new PinfoldError('INVALID_INPUT', `@pinfold/text-extract extractPassages: option ${option} ${problem}`)
}
