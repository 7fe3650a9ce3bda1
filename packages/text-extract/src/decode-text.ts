/**
 * Bytes to string using the MIME type's `charset` parameter (default UTF-8). Malformed bytes become
 * U+FFFD instead of failing: a cut-off multi-byte character at the byte cap is expected.
 */
export function decodeText(bytes: Uint8Array, mimeType: string): string {
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(mimeType)?.[1] ?? 'utf-8'
  return decoderFor(charset).decode(bytes)
}

function decoderFor(charset: string) {
  try {
    return new TextDecoder(charset)
  } catch {
    return new TextDecoder('utf-8') // unknown label: UTF-8 is the best guess for text on the web
  }
}
