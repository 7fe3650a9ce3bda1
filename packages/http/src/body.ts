import { invalid, PinfoldError } from '@pinfold/core'

/** JSON bodies are small; anything bigger is refused before it is buffered. */
export const MAX_JSON_BYTES = 1024 * 1024

/**
 * Reads a JSON object body whatever its Content-Type (the official SDK sends some JSON as
 * text/plain). An empty body reads as `{}`.
 */
export async function readJsonObject(request: Request, maxBytes = MAX_JSON_BYTES): Promise<Record<string, unknown>> {
  const text = await readText(request, maxBytes)
  if (text.trim() === '') return {}
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw invalid('request body must be valid JSON')
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw invalid('request body must be a JSON object')
  }
  return parsed as Record<string, unknown>
}

async function readText(request: Request, maxBytes: number): Promise<string> {
  if (!request.body) return ''
  const declared = Number(request.headers.get('content-length') ?? '0')
  if (declared > maxBytes) throw new PinfoldError('PAYLOAD_TOO_LARGE', `JSON bodies are limited to ${maxBytes} bytes`)
  const decoder = new TextDecoder()
  let text = ''
  let size = 0
  for await (const chunk of request.body) {
    size += chunk.length
    if (size > maxBytes) throw new PinfoldError('PAYLOAD_TOO_LARGE', `JSON bodies are limited to ${maxBytes} bytes`)
    text += decoder.decode(chunk, { stream: true })
  }
  return text + decoder.decode()
}
