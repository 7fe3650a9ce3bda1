import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { request } from 'node:http'

export interface CurlDownload {
  status: number
  bytes: number
  /** Seconds from the start to the first body byte, and to the end (curl's own timers). */
  firstByteSeconds: number
  totalSeconds: number
  /** SHA-256 (hex) of the body, when asked for. */
  sha256?: string
}

/**
 * GETs a URL with curl, a C client (so many concurrent downloads cost the machine little besides
 * the server under test), discarding the body, or hashing it when `hash` is set.
 */
export function curlDownload(url: string, options: { hash?: boolean; headers?: string[] } = {}): Promise<CurlDownload> {
  // the figures go to stderr (after any error message), the body to stdout or nowhere
  const args = ['-s', '-S', '-w', '%{stderr}\n%{http_code} %{size_download} %{time_starttransfer} %{time_total}']
  for (const header of options.headers ?? []) args.push('-H', header)
  args.push('-o', options.hash ? '-' : '/dev/null', url)
  return new Promise((resolve, reject) => {
    const child = spawn('curl', args, { stdio: ['ignore', options.hash ? 'pipe' : 'ignore', 'pipe'] })
    const hash = createHash('sha256')
    let stderr = ''
    child.stdout?.on('data', (chunk: Buffer) => hash.update(chunk))
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr += chunk
    })
    child.once('error', reject)
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`curl ${url} exited with ${code}: ${stderr.trim()}`))
      const [status, bytes, firstByte, total] = stderr.trim().split('\n').at(-1)!.split(' ').map(Number)
      resolve({
        status: status!,
        bytes: bytes!,
        firstByteSeconds: firstByte!,
        totalSeconds: total!,
        ...(options.hash ? { sha256: hash.digest('hex') } : {}),
      })
    })
  })
}

/**
 * Time to first body byte of a GET, in ms, measured from just before the request is sent; the
 * connection is cut as soon as that byte arrives, so a 1 GiB body costs no more than a small one.
 */
export function timeToFirstByte(url: string): Promise<{ status: number; ms: number }> {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint()
    const req = request(url, { agent: false }, (res) => {
      res.once('data', () => {
        const ms = Number(process.hrtime.bigint() - start) / 1e6
        req.destroy()
        resolve({ status: res.statusCode ?? 0, ms })
      })
      res.once('end', () => reject(new Error(`${url}: empty body`)))
    })
    req.once('error', (error) => {
      if (!req.destroyed || (error as { code?: string }).code !== 'ECONNRESET') reject(error)
    })
    req.end()
  })
}

/** A GET with extra headers whose whole (small) body is returned. */
export function getBytes(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.once('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.once('error', reject)
    })
    req.once('error', reject)
    req.end()
  })
}

/** SHA-256 (hex) of a file, or of `length` bytes of it from `offset`. */
export async function fileSha256(path: string, range?: { offset: number; length: number }): Promise<string> {
  const hash = createHash('sha256')
  const stream = range
    ? createReadStream(path, { start: range.offset, end: range.offset + range.length - 1 })
    : createReadStream(path, { highWaterMark: 1024 * 1024 })
  for await (const chunk of stream) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

/** Bytes `[offset, offset + length)` of a file. */
export async function fileSlice(path: string, offset: number, length: number): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of createReadStream(path, { start: offset, end: offset + length - 1 })) {
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks)
}
