import { request } from 'node:http'

/**
 * Streams one file as multipart/form-data with node:http, honouring backpressure, and resolves with
 * the parsed JSON answer. The body is produced on the fly: the client never holds the file.
 */
export function uploadMultipart(
  url: string,
  token: string,
  chunks: Iterable<Uint8Array>,
  fields: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  const boundary = `pinfold-bench-${Date.now()}`
  return new Promise((resolve, reject) => {
    const req = request(`${url}/v3/files`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'transfer-encoding': 'chunked',
      },
    })
    req.on('error', reject)
    req.on('response', (res) => {
      const parts: Buffer[] = []
      res.on('data', (part: Buffer) => parts.push(part))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(parts).toString()) }))
    })
    const write = async () => {
      for (const [name, value] of Object.entries(fields)) {
        req.write(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      }
      req.write(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
      )
      for (const chunk of chunks) {
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r))
      }
      req.end(`\r\n--${boundary}--\r\n`)
    }
    write().catch(reject)
  })
}
