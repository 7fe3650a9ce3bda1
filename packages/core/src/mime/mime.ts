import { fileTypeFromBuffer } from 'file-type'
import { lookup } from 'mime-types'

/** How many leading bytes {@link detectMimeType} looks at (file-type's documented sample size). */
export const SNIFF_BYTES = 4100

/** Declared types that say nothing about the content, so the bytes are asked instead. */
const UNINFORMATIVE = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown'])

/** The MIME type a file name's extension stands for (mime-db, as `mime-types` ranks it), if any. */
export function mimeTypeFromName(fileName: string): string | undefined {
  return lookup(fileName) || undefined
}

/**
 * The MIME type of an upload: the client's declared type when it is specific, else the magic
 * bytes, else the file name's extension, else `text/plain` for valid UTF-8 text, else
 * `application/octet-stream`.
 */
export async function detectMimeType(
  head: Uint8Array,
  declared: string | undefined,
  fileName: string,
): Promise<string> {
  const type = declared?.split(';')[0]?.trim().toLowerCase() ?? ''
  if (!UNINFORMATIVE.has(type) && /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type)) return type
  const sniffed = head.length > 0 ? await fileTypeFromBuffer(head) : undefined
  if (sniffed) return sniffed.mime
  const byName = mimeTypeFromName(fileName)
  if (byName) return byName
  return head.length > 0 && looksLikeText(head) ? 'text/plain' : 'application/octet-stream'
}

const utf8 = new TextDecoder('utf-8', { fatal: true })

/** Control characters other than tab, newline, form feed and carriage return mean binary data. */
function isBinaryControl(char: string): boolean {
  const code = char.charCodeAt(0)
  return code < 0x20 && code !== 0x09 && code !== 0x0a && code !== 0x0c && code !== 0x0d
}

function looksLikeText(head: Uint8Array): boolean {
  // The sample may end inside a multi-byte character: drop up to 3 trailing bytes before decoding.
  for (let cut = 0; cut < 4 && cut < head.length; cut++) {
    try {
      const text = utf8.decode(head.subarray(0, head.length - cut))
      return ![...text].some(isBinaryControl)
    } catch {}
  }
  return false
}
