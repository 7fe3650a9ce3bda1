import { createReadStream } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { createFileService } from '@pinfold/core'
import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { createFsBlobStore } from '@pinfold/adapter-fs'
const mode = process.argv[3]
const blobs = mode === 'fs' ? createFsBlobStore({ directory: mkdtempSync('/tmp/exp-') }) : { put: async (_k: string, src: AsyncIterable<Uint8Array>) => { let size = 0; for await (const c of src) size += c.length; return { size } }, get: async () => { throw new Error('x') }, head: async () => undefined, delete: async () => {} }
const s = createFileService({ records: createMemoryRecordStore(), blobs: blobs as any })
let peak = 0
const t = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss) }, 20)
const start = Date.now()
const r = await s.files.upload({ tenantId: 'a', userId: 'b' }, (async function* () { yield { kind: 'file' as const, path: 'x', content: createReadStream(process.argv[2]!, { highWaterMark: 65536 }) } })())
clearInterval(t)
console.log(mode, r.file.cid, 'peak rss MB', (peak / 1e6) | 0, 'MB/s', (1073.7 / ((Date.now() - start) / 1000)) | 0)
