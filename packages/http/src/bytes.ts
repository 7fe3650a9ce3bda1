/** Byte helpers on web standards only (`btoa`/`atob`, typed arrays): no `Buffer` in this package. */

/** The UTF-8 length of `text` in bytes, without encoding it (a lone surrogate counts as U+FFFD, 3 bytes). */
export function utf8Length(text: string): number {
  let bytes = text.length
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x80) continue
    if (code < 0x800) bytes += 1
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2 // a pair: 2 UTF-16 units, 4 bytes
        i++
      } else bytes += 2
    } else bytes += 2
  }
  return bytes
}

export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0))
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.byteLength
  }
  return out
}

/** Each byte as the character of the same code (`latin1`), the form `btoa` takes and `atob` gives. */
export function binaryString(bytes: Uint8Array): string {
  let out = ''
  // in slices: spreading a large array into one call would overflow the stack
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return out
}

export const base64 = (bytes: Uint8Array): string => btoa(binaryString(bytes))

export const base64url = (bytes: Uint8Array): string =>
  base64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')

/** base64 (padding optional) to bytes; undefined when it is not base64. */
export function fromBase64(value: string): Uint8Array | undefined {
  let binary: string
  try {
    binary = atob(value)
  } catch {
    return undefined
  }
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
