import { type ClientRequest, request } from 'node:http'

/**
 * A multipart upload of one file written by hand over node:http, chunked, its part header already
 * sent: the caller writes the file's bytes at its own pace, and may stall or never finish, as
 * clients on a bad network do (fetch cannot pause a body).
 */
export function openFileUpload(url: string, token: string, filename: string): { req: ClientRequest; finish(): void } {
  const boundary = `raw-${filename}`
  const req = request(`${url}/v3/files`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'transfer-encoding': 'chunked',
    },
  })
  req.on('error', () => {}) // the server may cut it: that is what these uploads test
  req.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n\r\n`)
  return { req, finish: () => req.end(`\r\n--${boundary}--\r\n`) }
}
