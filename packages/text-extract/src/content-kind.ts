/** The text formats this package understands, each with its own extractor. */
export type ContentKind = 'text' | 'markdown' | 'json' | 'csv' | 'tsv' | 'html' | 'xml' | 'pdf'

const BY_MIME_TYPE: Record<string, ContentKind> = {
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'application/json': 'json',
  'text/json': 'json',
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/tab-separated-values': 'tsv',
  'text/xml': 'xml',
  'application/xml': 'xml',
  'application/pdf': 'pdf',
}

const BY_EXTENSION: Record<string, ContentKind> = {
  txt: 'text',
  text: 'text',
  log: 'text',
  md: 'markdown',
  markdown: 'markdown',
  json: 'json',
  csv: 'csv',
  tsv: 'tsv',
  htm: 'html',
  html: 'html',
  xhtml: 'html',
  xml: 'xml',
  pdf: 'pdf',
}

/** A MIME type without parameters, lower-cased: `Text/HTML; charset=UTF-8` → `text/html`. */
export function mimeEssence(mimeType: string): string {
  return mimeType.split(';')[0]!.trim().toLowerCase()
}

/**
 * How to read a file. The MIME type decides; the file name's extension only stands in when the type
 * says nothing (`application/octet-stream` or empty), as uploads from some clients do.
 */
export function contentKind(mimeType: string, fileName?: string): ContentKind | undefined {
  const essence = mimeEssence(mimeType)
  if (essence === '' || essence === 'application/octet-stream') {
    const extension = fileName?.match(/\.([^./\\]+)$/)?.[1]?.toLowerCase()
    return extension === undefined ? undefined : BY_EXTENSION[extension]
  }
  const known = BY_MIME_TYPE[essence]
  if (known) return known
  if (essence.endsWith('+json')) return 'json'
  if (essence.endsWith('+xml')) return 'xml'
  if (essence.startsWith('text/')) return 'text'
  return undefined
}
