import { throwIfAborted } from '@pinfold/interface'
import { csvToText } from './csv-text.js'
import { decodeText } from './decode-text.js'
import { type ExtractionTask, type ExtractOptions, readExtractionTask } from './extraction-task.js'
import { htmlToText } from './html-text.js'
import { jsonToText } from './json-text.js'
import { markdownToText } from './markdown-text.js'
import { pdfToText } from './pdf-text.js'
import { splitPassages } from './split-passages.js'

/**
 * The readable text of a file, split into overlapping passages ready to embed. Supports `text/*`,
 * Markdown, JSON, CSV/TSV, HTML/XHTML, XML and PDF; anything else is `INVALID_INPUT`.
 *
 * This parses on the calling thread: a server should use `createExtractionPool`, which parses tenant
 * files on worker threads with time and memory limits.
 */
export async function extractPassages(source: AsyncIterable<Uint8Array>, options: ExtractOptions): Promise<string[]> {
  const task = await readExtractionTask(source, options)
  const passages = await passagesOf(task)
  throwIfAborted(options.signal)
  return passages
}

/** The passages of a file already read: the parsing half of `extractPassages`, which workers run. */
export async function passagesOf(task: ExtractionTask): Promise<string[]> {
  const text = await toText(task)
  // Text beyond the cap is ignored, as text beyond `maxBytes` is: it bounds the splitting's work.
  return splitPassages(text.slice(0, task.maxTextChars), task.passageChars, task.overlapChars)
}

function toText(task: ExtractionTask): string | Promise<string> {
  if (task.kind === 'pdf') return pdfToText(task.bytes, task)
  const text = decodeText(task.bytes, task.mimeType)
  switch (task.kind) {
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
