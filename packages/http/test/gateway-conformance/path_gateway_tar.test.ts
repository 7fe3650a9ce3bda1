import { Readable } from 'node:stream'
import {
  type ConformanceGateway,
  conformanceScore,
  openFixtureCar,
  startConformanceGateway,
} from '@pinfold/testing/gateway-conformance'
import { extract } from 'tar-stream'
import { afterAll, beforeAll, describe, expect } from 'vitest'

/** gateway-conformance `tests/path_gateway_tar_test.go`: `?format=tar` and `Accept: application/x-tar`. */
const score = conformanceScore('path_gateway_tar_test.go')

let gw: ConformanceGateway
beforeAll(async () => {
  gw = await startConformanceGateway()
})
afterAll(() => gw.close())

/** The members of a tar body (the suite's `IsTarFile`), read with tar-stream's extractor: name → text. */
async function untar(latin1: string): Promise<Map<string, { type: string; text: string }>> {
  const members = new Map<string, { type: string; text: string }>()
  const reader = extract()
  const done = new Promise<void>((resolve, reject) => {
    reader.on('entry', (header, stream, next) => {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: unknown) => chunks.push(chunk as Buffer))
      stream.on('end', () => {
        members.set(header.name, { type: header.type ?? 'file', text: Buffer.concat(chunks).toString('utf8') })
        next()
      })
    })
    reader.on('finish', resolve)
    reader.on('error', reject)
  })
  Readable.from([Buffer.from(latin1, 'latin1')]).pipe(reader)
  await done
  return members
}

describe('TestTar', () => {
  const T = 'TestTar'
  let dirCid: string
  let fileCid: string
  let outsideRoot: string
  let insideRoot: string
  beforeAll(async () => {
    dirCid = await gw.loadCar('path_gateway_tar/fixtures.car')
    fileCid = (await (await openFixtureCar('path_gateway_tar/fixtures.car')).cid('ą', 'ę', 'file-źł.txt')).toString()
    outsideRoot = await gw.loadCar('path_gateway_tar/outside-root.car')
    insideRoot = await gw.loadCar('path_gateway_tar/inside-root.car')
  })

  score.it(T, 'GET TAR with format=tar and extract', async () => {
    const res = await gw.get(`/ipfs/${fileCid}?format=tar`)
    expect(res.status).toBe(200)
    expect(res.headers['content-disposition']).toContain('attachment;')
    expect(res.headers.etag).toContain(`W/"${fileCid}.x-tar`)
    expect(res.headers['content-type']).toContain('application/x-tar')
    const members = await untar(res.body)
    expect(members.get(fileCid)?.text).toBe('I am a txt file on path with utf8\n')
  })

  score.it(T, "GET TAR with 'Accept: application/x-tar' and extract", async () => {
    const res = await gw.get(`/ipfs/${fileCid}`, { headers: { accept: 'application/x-tar' } })
    expect(res.status).toBe(200)
    expect(res.headers['content-disposition']).toContain('attachment;')
    expect(res.headers.etag).toContain(`W/"${fileCid}.x-tar`)
    expect(res.headers['content-type']).toContain('application/x-tar')
    expect((await untar(res.body)).size).toBe(1)
  })

  score.it(T, 'GET TAR has expected root directory', async () => {
    const res = await gw.get(`/ipfs/${dirCid}?format=tar`)
    expect(res.status).toBe(200)
    const members = await untar(res.body)
    expect(members.get(`${dirCid}/ą/ę/file-źł.txt`)?.text).toBe('I am a txt file on path with utf8\n')
    // and the rest of the tree, directories included
    expect(members.get(`${dirCid}/ą/ę`)?.type).toBe('directory')
    expect(members.get(`${dirCid}/api/file.txt`)?.text).toBe('I am a txt file in confusing /api dir\n')
  })

  score.it(T, 'GET TAR with explicit ?filename= succeeds with modified Content-Disposition header', async () => {
    const res = await gw.get(`/ipfs/${dirCid}?filename=${encodeURIComponent('testтест.tar')}&format=tar`)
    expect(res.status).toBe(200)
    expect(res.headers['content-disposition']).toContain(
      `attachment; filename="test____.tar"; filename*=UTF-8''test%D1%82%D0%B5%D1%81%D1%82.tar`,
    )
  })

  score.it(T, 'GET TAR with relative paths outside root fails', async () => {
    const res = await gw.get(`/ipfs/${outsideRoot}?format=tar`)
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(res.status).toBeLessThanOrEqual(599)
    // refused before any tar byte: a clear 400 naming the link
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body).error).toContain('../foo')
  })

  score.it(T, 'GET TAR with relative paths inside root works', async () => {
    const res = await gw.get(`/ipfs/${insideRoot}?format=tar`)
    expect(res.status).toBe(200)
    const members = await untar(res.body)
    expect(members.get(`${insideRoot}/foobar/file`)?.text).toBe('Hello, world!\n')
  })
})
