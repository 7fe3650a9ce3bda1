/**
 * The `ipfs-car` CLI unpacks the gateway's `?format=car` responses, verifying every block's hash, and
 * must get back the uploaded bytes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { type InteropContents, uploadContents } from './contents.js'
import { unpackWithIpfsCar } from './run-clients.js'

describe('interop - ipfs-car unpacks gateway CARs', () => {
  let server: TestServer
  let contents: InteropContents
  beforeAll(async () => {
    server = await startTestServer({ HOST: '127.0.0.1' })
    contents = await uploadContents(server)
  })
  afterAll(() => server?.close())

  const carOf = async (cid: string) => {
    const res = await fetch(`${server.url}/ipfs/${cid}?format=car`)
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/vnd\.ipld\.car; ?version=1/)
    return new Uint8Array(await res.arrayBuffer())
  }

  for (const [name, kind, version] of [
    ['a single-block file, CIDv1', 'small', 'v1'],
    ['a single-block file, CIDv0', 'small', 'v0'],
    ['a 5 MiB file (20 leaves), CIDv1', 'big', 'v1'],
    ['the same 5 MiB file, CIDv0', 'big', 'v0'],
  ] as const) {
    it(`unpack - ${name}`, async () => {
      const { cid, digest } = contents[kind][version]
      expect(await unpackWithIpfsCar(await carOf(cid))).toEqual({ '': digest.sha256 })
    })
  }

  it('unpack - a folder with a nested file and files over one block', async () => {
    const unpacked = await unpackWithIpfsCar(await carOf(contents.folder.cid))
    const files = Object.entries(contents.folder.files)
    expect(unpacked).toEqual(Object.fromEntries(files.map(([path, digest]) => [path, digest.sha256])))
  })
})
