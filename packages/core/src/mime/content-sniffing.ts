import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type'

/** WHATWG MIME Sniffing: bytes skipped before a pattern, and the bytes that may end an HTML tag. */
const WHITESPACE = new Set([0x09, 0x0a, 0x0c, 0x0d, 0x20])
const TAG_TERMINATING = new Set([0x20, 0x3e])

/**
 * The HTML patterns of the WHATWG "rules for identifying a resource with an unknown MIME type"
 * (each matched case-insensitively after leading whitespace, followed by a tag-terminating byte):
 * the prefixes with which a browser decides that bytes are a page that may run scripts.
 * file-type recognises binary signatures only, so these few rows are kept here.
 */
const HTML_PREFIXES = [
  '<!DOCTYPE HTML',
  '<HTML',
  '<HEAD',
  '<SCRIPT',
  '<IFRAME',
  '<H1',
  '<DIV',
  '<FONT',
  '<TABLE',
  '<A',
  '<STYLE',
  '<TITLE',
  '<B',
  '<BODY',
  '<BR',
  '<P',
  '<!--',
]

function whatwgScriptable(head: Uint8Array): 'text/html' | 'text/xml' | undefined {
  let start = 0
  while (start < head.length && WHITESPACE.has(head[start]!)) start++
  const text = Buffer.from(head.subarray(start, start + 16))
    .toString('latin1')
    .toUpperCase()
  const html = HTML_PREFIXES.some(
    (prefix) => text.startsWith(prefix) && TAG_TERMINATING.has(head[start + prefix.length]!),
  )
  if (html) return 'text/html'
  return text.startsWith('<?XML') ? 'text/xml' : undefined
}

/**
 * What the first bytes of a content say it is, whatever the client declared: the type of a binary
 * signature (file-type), else `text/html` or `text/xml` by the WHATWG rules above. `undefined`
 * when the bytes carry no recognisable type (plain text, or binary without a known signature).
 */
export async function sniffContentType(head: Uint8Array): Promise<string | undefined> {
  const signed = head.length > 0 ? await fileTypeFromBuffer(head) : undefined
  return signed?.mime ?? whatwgScriptable(head)
}

export const isXmlType = (type: string) => type.endsWith('/xml') || type.endsWith('+xml')

/**
 * Whether every content of `type` starts with a signature {@link sniffContentType} recognises, so
 * that bytes without one are not of that type. XML types are excluded: an XML declaration is optional.
 */
export const hasSignature = (type: string) => supportedMimeTypes.has(type as never) && !isXmlType(type)
