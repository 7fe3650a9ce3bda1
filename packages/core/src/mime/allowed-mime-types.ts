import { invalid } from '@pinfold/interface'
import { hasSignature, isXmlType, sniffContentType } from './content-sniffing.js'
import { detectMimeType } from './mime.js'

export const DIRECTORY_MIME_TYPE = 'directory'

/**
 * Whether a signed URL's `allow_mime_types` admits a type. Wildcards (`image/*`, `*`, `*\/*`) match
 * file types only: a folder needs the literal `directory`, as on Pinata.
 */
export function mimeTypeAllowed(mimeType: string, allowed: readonly string[]): boolean {
  const type = mimeType.toLowerCase()
  return allowed.some((raw) => {
    const pattern = raw.trim().toLowerCase()
    if (pattern === type) return true
    if (type === DIRECTORY_MIME_TYPE) return false
    if (pattern === '*' || pattern === '*/*') return true
    return pattern.endsWith('/*') && type.startsWith(pattern.slice(0, -1))
  })
}

/** Refuses a type the list does not admit; no list (or an empty one) admits everything. */
export function checkMimeType(mimeType: string, allowed: readonly string[] | undefined) {
  if (allowed === undefined || allowed.length === 0) return
  if (!mimeTypeAllowed(mimeType, allowed)) {
    // Pinata's answer, word for word (400)
    throw invalid(`Presigned URL does not grant permissions to upload detected MIME type: ${mimeType}`)
  }
}

/**
 * Checks a single file's first bytes against `allow_mime_types`, so a client cannot pass an HTML
 * page off as `image/png`: the type the file would be recorded with (declared, else detected) must
 * be allowed, and so must the type its bytes show (a binary signature, or HTML / XML by the WHATWG
 * sniffing rules). Bytes that show no type (plain text, unknown binary) pass only under a declared
 * type that has no signature (`text/plain`, `text/csv`, `application/json`…): bytes claiming to be
 * `image/png` without PNG's signature are not a PNG. XML the bytes show passes under any allowed
 * XML type (`image/svg+xml`). A list admitting `*` admits any bytes.
 */
export async function checkContentAllowed(
  head: Uint8Array,
  declared: string | undefined,
  fileName: string,
  allowed: readonly string[],
): Promise<void> {
  if (allowed.some((pattern) => ['*', '*/*'].includes(pattern.trim()))) return
  const type = await detectMimeType(head, declared, fileName)
  checkMimeType(type, allowed)
  const shown = await sniffContentType(head)
  if (shown === undefined) {
    if (hasSignature(type)) throw invalid(`the file's bytes are not ${type}: they lack its signature`)
  } else if (!(isXmlType(shown) && isXmlType(type))) {
    checkMimeType(shown, allowed)
  }
}
