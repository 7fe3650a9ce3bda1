import { randomBytes } from 'node:crypto'
import { setImmediate } from 'node:timers/promises'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { b64, cidOf, createSdkStyle, type FileItem, findByCid, patchAt } from '@pinfold/testing/tus'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

describe('resumable uploads (tus 1.0)', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  it('names - a blank filename completes under the default name; a blank name option is refused before any byte', async () => {
    const bytes = randomBytes(1000)
    const created = await createSdkStyle(server, bytes.length, `filename ${b64(' ')},network ${b64('public')}`)
    expect(created.status).toBe(201)
    const done = await patchAt(server, created.headers.get('location')!, 0, bytes)
    expect(done.status).toBe(204)
    expect((await findByCid(server, await cidOf(bytes))).name).toBe('file')
    const refused = await createSdkStyle(
      server,
      10,
      `filename ${b64('a.txt')},name ${b64('  ')},network ${b64('public')}`,
    )
    expect(refused.status).toBe(400)
  })

  it('empty - an upload of 0 bytes completes on its one empty PATCH and reads back empty', async () => {
    const created = await createSdkStyle(server, 0, `filename ${b64('empty.txt')},network ${b64('public')}`)
    expect(created.status).toBe(201)
    const done = await patchAt(server, created.headers.get('location')!, 0, new Uint8Array(0))
    expect(done.status).toBe(204)
    const cid = done.headers.get('upload-cid')
    expect(cid).toBe(await cidOf(new Uint8Array(0)))
    expect(await findByCid(server, cid!)).toMatchObject({ name: 'empty.txt', size: 0 })
    const read = await server.fetch(`${server.url}/ipfs/${cid}`)
    expect(read.status).toBe(200)
    expect((await read.arrayBuffer()).byteLength).toBe(0)
  })

  it('SDK shape - creation, chunked PATCHes, a retried chunk, and a final 204 with upload-cid', async () => {
    const bytes = randomBytes(600_000)
    const metadata = [
      `filename ${b64('café.bin', 'latin1')}`, // the SDK's btoa sends Latin-1, not UTF-8
      `filetype ${b64('application/octet-stream')}`,
      `network ${b64('public')}`,
      `keyvalues ${b64(JSON.stringify({ env: 'prod' }))}`,
      `cid_version ${b64('v0')}`,
    ].join(',')
    const created = await createSdkStyle(server, bytes.length, metadata, '?X-Upload-Option-Cid-Version=v0')
    expect(created.status).toBe(201)
    const location = created.headers.get('location')!
    expect(location).toMatch(new RegExp(`^${server.url}/v3/files/[0-9a-f-]{36}/[A-Za-z0-9_-]+$`))

    const first = await patchAt(server, location, 0, bytes.subarray(0, 250_001))
    expect(first.status).toBe(204)
    expect(first.headers.get('upload-offset')).toBe('250001')
    // the SDK retries a chunk at the same offset when it saw no answer: acknowledged, not stored twice
    const retried = await patchAt(server, location, 0, bytes.subarray(0, 250_001))
    expect(retried.status).toBe(204)
    expect(retried.headers.get('upload-offset')).toBe('250001')
    const stale = await patchAt(server, location, 0, bytes.subarray(0, 10))
    expect(stale.status).toBe(409)

    const last = await patchAt(server, location, 250_001, bytes.subarray(250_001))
    expect(last.status).toBe(204)
    const cid = last.headers.get('upload-cid')
    expect(cid).toBe(await cidOf(bytes, 'v0'))
    const file = await findByCid(server, cid!)
    expect(file).toMatchObject({ name: 'café.bin', size: bytes.length, keyvalues: { env: 'prod' } })
  })

  it('PATCH - of two concurrent PATCHes at one offset exactly one is accepted and stored', async () => {
    const created = await createSdkStyle(server, 200_000, `filename ${b64('race.bin')},network ${b64('public')}`)
    const location = created.headers.get('location')!
    const before = server.blobCount()
    // different lengths, so the loser cannot pass for a retry of the winner's chunk
    const sizes = [100_000, 60_000]
    const results = await Promise.all(sizes.map((size) => patchAt(server, location, 0, randomBytes(size))))
    expect(results.map((r) => r.status).sort()).toEqual([204, 409])
    const winner = sizes[results.findIndex((r) => r.status === 204)]!
    const head = await server.fetch(location, { method: 'HEAD' })
    expect(head.headers.get('upload-offset')).toBe(String(winner))
    expect(server.blobCount()).toBe(before + 1)
  })

  // Embedded storage: its I/O lets requests interleave with a completion (in memory a completion runs in one go).
  it('PATCH - empty PATCHes racing the completing one at the final offset record each upload exactly once', {
    timeout: 90_000,
  }, async () => {
    const embedded = await startTestApi({ storage: 'embedded' })
    try {
      const run = `complete-once-${randomBytes(4).toString('hex')}`
      const uploads = 3
      const racers = 4
      const answers = await Promise.all(
        Array.from({ length: uploads }, async (_, i) => {
          const bytes = randomBytes(1_000_000)
          const name = `${run}-${i}`
          const metadata = `filename ${b64(name)},network ${b64('public')}`
          const created = await createSdkStyle(embedded, bytes.length, metadata)
          const location = created.headers.get('location')!
          expect((await patchAt(embedded, location, 0, bytes.subarray(0, 1))).status).toBe(204)
          // each racer keeps sending empty PATCHes at the final offset until the session is gone
          const race = async () => {
            const statuses: number[] = []
            for (let tries = 0; tries < 500 && statuses.at(-1) !== 404; tries++) {
              // over a socket each try waited for the network; in process only this lets the
              // completing PATCH's file I/O run between tries instead of after all of them
              await setImmediate()
              const res = await patchAt(embedded, location, bytes.length, new Uint8Array(0))
              statuses.push(res.status)
              if (res.status === 204) expect(res.headers.get('upload-offset')).toBe(String(bytes.length))
              expect(res.headers.get('upload-cid')).toBeNull()
            }
            return statuses
          }
          const [completing, ...raced] = await Promise.all([
            patchAt(embedded, location, 1, bytes.subarray(1)),
            ...Array.from({ length: racers }, race),
          ])
          expect(completing!.status).toBe(204)
          expect(completing!.headers.get('upload-cid')).toBe(await cidOf(bytes))
          return raced.flat()
        }),
      )
      // 409 before the completing PATCH advanced the offset, 204 while it completes, 404 once it is done
      expect(answers.flat()).toContain(204) // the race was run: some racer came while the upload completed
      expect(new Set(answers.flat())).toSatisfy((seen: Set<number>) =>
        [...seen].every((s) => [204, 404, 409].includes(s)),
      )
      const res = await embedded.api(`/v3/files/public?name=${run}&limit=100`)
      const { files } = ((await res.json()) as { data: { files: FileItem[] } }).data
      expect(files.map((f) => f.name).sort()).toEqual(Array.from({ length: uploads }, (_, i) => `${run}-${i}`))
    } finally {
      await embedded.close()
    }
  })

  it('PATCH - bytes beyond Upload-Length are refused with 413', async () => {
    const created = await createSdkStyle(server, 10, `filename ${b64('small.bin')}`)
    const res = await patchAt(server, created.headers.get('location')!, 0, new Uint8Array(11))
    expect(res.status).toBe(413)
  })

  it('DELETE - terminates the upload and removes its parts; HEAD is then 404', async () => {
    const before = server.blobCount()
    const created = await createSdkStyle(server, 100, `filename ${b64('gone.bin')}`)
    const location = created.headers.get('location')!
    await patchAt(server, location, 0, new Uint8Array(40))
    expect(server.blobCount()).toBe(before + 1)
    const del = await server.fetch(location, { method: 'DELETE', headers: { 'Tus-Resumable': '1.0.0' } })
    expect(del.status).toBe(204)
    expect(server.blobCount()).toBe(before)
    expect((await server.fetch(location, { method: 'HEAD' })).status).toBe(404)
  })

  it('session URL - a wrong token is 404 and creation needs a bearer token', async () => {
    const created = await createSdkStyle(server, 100, `filename ${b64('x.bin')}`)
    const location = created.headers.get('location')!
    const wrong = `${location.slice(0, location.lastIndexOf('/'))}/AAAA${location.slice(location.lastIndexOf('/') + 5)}`
    expect((await server.fetch(wrong, { method: 'HEAD' })).status).toBe(404)
    expect((await patchAt(server, wrong, 0, new Uint8Array(1))).status).toBe(404)
    const anonymous = await server.fetch(`${server.url}/v3/files`, {
      method: 'POST',
      headers: { 'Upload-Length': '5' },
    })
    expect(anonymous.status).toBe(401)
  })

  it('signed URL - tus creation through a signed URL needs no token and keeps its constraints', async () => {
    const sign = await server.api('/v3/files/sign', {
      method: 'POST',
      body: JSON.stringify({ expires: 600, max_file_size: 1000, filename: 'signed-tus.bin', network: 'public' }),
    })
    const signed = ((await sign.json()) as { data: string }).data
    const tooBig = await server.fetch(signed, { method: 'POST', headers: { 'Upload-Length': '1001' } })
    expect(tooBig.status).toBe(413)
    const url = new URL(signed)
    url.searchParams.set('X-Upload-Option-Cid-Version', 'v1')
    const created = await server.fetch(url, {
      method: 'POST',
      headers: { 'Upload-Length': '500', 'Upload-Metadata': `filename ${b64('client.bin')}`, Authorization: 'Bearer' },
    })
    expect(created.status).toBe(201)
    const bytes = randomBytes(500)
    const done = await patchAt(server, created.headers.get('location')!, 0, bytes)
    expect(done.status).toBe(204)
    const file = await findByCid(server, done.headers.get('upload-cid')!)
    expect(file.name).toBe('signed-tus.bin')
  })
})
