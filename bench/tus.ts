/**
 * A large resumable (tus) upload, shaped as the official SDK sends it: a creation request, then
 * PATCH chunks of 52,428,801 bytes streamed from disk. Reports throughput beside streaming SHA-256
 * of the same file and the server's peak RSS (target ≤ 200 MB whatever the size).
 */
import { createReadStream } from 'node:fs'
import { request } from 'node:http'
import { benchFile } from './lib/bench-file.js'
import { peakRssMb, startBenchServer } from './lib/process.js'
import { sha256File } from './lib/sha256-file.js'

const CHUNK = 52_428_801
const MB = 1e6

function since(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9
}

function send(
  url: string,
  method: string,
  headers: Record<string, string | number>,
  body?: NodeJS.ReadableStream,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined> }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers }))
    })
    req.on('error', reject)
    if (body) body.pipe(req)
    else req.end()
  })
}

export async function benchTus(size: number) {
  const path = await benchFile(size)
  const server = await startBenchServer('upload-server.mjs', { BENCH_BLOBS: 'fs' })
  try {
    const sha = (await sha256File(path, size)).MBps
    const start = process.hrtime.bigint()
    const auth = { authorization: `Bearer ${server.token}` }
    const filename = Buffer.from('bench.bin').toString('base64')
    const created = await send(`${server.url}/v3/files`, 'POST', {
      ...auth,
      'upload-length': size,
      'upload-metadata': `filename ${filename},network ${Buffer.from('public').toString('base64')}`,
    })
    const location = created.headers.location as string
    if (created.status !== 201 || !location) throw new Error(`tus creation failed with ${created.status}`)
    let cid: string | undefined
    for (let offset = 0; offset < size; offset += CHUNK) {
      const end = Math.min(size, offset + CHUNK)
      const res = await send(
        location,
        'PATCH',
        {
          ...auth,
          'content-type': 'application/offset+octet-stream',
          'upload-offset': offset,
          'content-length': end - offset,
        },
        createReadStream(path, { start: offset, end: end - 1, highWaterMark: 1024 * 1024 }),
      )
      if (res.status !== 204) throw new Error(`PATCH at ${offset} answered ${res.status}`)
      cid = res.headers['upload-cid'] as string | undefined
    }
    const seconds = since(start)
    if (!cid) throw new Error('the last PATCH carried no upload-cid')
    return {
      sizeMiB: size / 1024 / 1024,
      uploadMBps: size / MB / seconds,
      sha256MBps: sha,
      peakRssMb: peakRssMb(server.pid),
    }
  } finally {
    await server.stop()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const sizes = (process.env.BENCH_TUS_MIB ?? '2048').split(',').map((mib) => Number(mib) * 1024 * 1024)
  const rows = []
  for (const size of sizes) rows.push(await benchTus(size))
  console.log('| size | tus upload MB/s | SHA-256 MB/s | ratio | server peak RSS MB (target ≤ 200) |')
  console.log('|---|---|---|---|---|')
  for (const r of rows) {
    console.log(
      `| ${r.sizeMiB} MiB | ${r.uploadMBps.toFixed(0)} | ${r.sha256MBps.toFixed(0)} | ${(r.uploadMBps / r.sha256MBps).toFixed(2)} | ${r.peakRssMb.toFixed(0)} |`,
    )
  }
}
