import { optionChecks, PinfoldError, throwIfAborted } from '@pinfold/interface'
import { type ContentKind, contentKind, mimeEssence } from './content-kind.js'
import { readCapped } from './read-capped.js'

export interface ExtractOptions {
  /** The file's MIME type; parameters such as `charset=` are honoured. */
  mimeType: string
  /** Used to guess the type when `mimeType` is empty or `application/octet-stream`, and in messages. */
  fileName?: string | undefined
  /** Bytes read from the source at most. Text beyond is ignored; JSON and PDF beyond it are refused. Default 10 MiB. */
  maxBytes?: number | undefined
  /** Longest passage, in characters. Default 1000. */
  passageChars?: number
  /** Characters a passage repeats from the previous one. Default 200; less than `passageChars`. */
  overlapChars?: number
  /** PDF pages read at most. Default 500. */
  maxPages?: number
  /** Characters of extracted text kept at most (the first ones); text beyond is ignored. Default 2 Mi. */
  maxTextChars?: number
  /** Bytes a PDF's deflated streams may inflate to, all together; a PDF beyond is refused. Default 50 MiB. */
  maxInflatedBytes?: number
  /** Whose file it is: an extraction pool shares its threads fairly between tenants. */
  tenant?: string | undefined
  signal?: AbortSignal | undefined
}

export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024
// About twice the text Pinfold embeds per file (1000 passages of 1000 characters, less the overlap).
const DEFAULT_MAX_TEXT_CHARS = 2 * 1024 * 1024
const DEFAULT_MAX_INFLATED_BYTES = 50 * 1024 * 1024

/**
 * A file read and its options checked, nothing of it parsed yet: what `passagesOf` needs, and what
 * crosses to an extraction worker (plain data, the bytes transferable).
 */
export interface ExtractionTask {
  kind: ContentKind
  bytes: Uint8Array
  mimeType: string
  passageChars: number
  overlapChars: number
  maxPages: number
  maxTextChars: number
  maxInflatedBytes: number
}

/**
 * Checks the options, tells the content kind and reads at most `maxBytes` of the source. Parses
 * nothing: this part may run on a server's main thread, the parsing (`passagesOf`) should not.
 */
export async function readExtractionTask(
  source: AsyncIterable<Uint8Array>,
  options: ExtractOptions,
): Promise<ExtractionTask> {
  const check = optionChecks('@pinfold/text-extract', 'extractPassages')
  const maxBytes = check.positiveInteger('maxBytes', options.maxBytes ?? DEFAULT_MAX_BYTES)
  const passageChars = check.positiveInteger('passageChars', options.passageChars ?? 1000)
  const overlapChars = check.integerBetween(
    'overlapChars',
    options.overlapChars ?? Math.min(200, Math.floor(passageChars / 5)),
    0,
    passageChars - 1,
    'from 0 to passageChars − 1',
  )
  const maxPages = check.positiveInteger('maxPages', options.maxPages ?? 500)
  const maxTextChars = check.positiveInteger('maxTextChars', options.maxTextChars ?? DEFAULT_MAX_TEXT_CHARS)
  const maxInflatedBytes = check.positiveInteger(
    'maxInflatedBytes',
    options.maxInflatedBytes ?? DEFAULT_MAX_INFLATED_BYTES,
  )

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
  return {
    kind,
    bytes,
    mimeType: options.mimeType,
    passageChars,
    overlapChars,
    maxPages,
    maxTextChars,
    maxInflatedBytes,
  }
}
