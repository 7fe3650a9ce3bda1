import * as dagCbor from '@ipld/dag-cbor'
import * as dagJson from '@ipld/dag-json'
import { form, startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { carBytes, storedBlocks } from '@pinfold/testing/uploads'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const JSON_CODE = 0x0200
const CBOR_CODE = 0x51

async function block(code: number, bytes: Uint8Array) {
  return { cid: CID.createV1(code, await sha256.digest(bytes)), bytes }
}

/** A dag-json root linking to a plain JSON block and a plain CBOR block. */
async function jsonDag() {
  const json = await block(JSON_CODE, new TextEncoder().encode('{"plain":"json"}'))
  const cbor = await block(CBOR_CODE, dagCbor.encode({ plain: 'cbor' }))
  const root = await block(dagJson.code, dagJson.encode({ json: json.cid, cbor: cbor.cid, note: 'hi' }))
  return { root, blocks: [root, json, cbor] }
}

describe('CAR uploads with dag-json, json and cbor blocks', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startTestApi()
  })
  afterAll(() => server.close())

  const uploadCar = async (bytes: Uint8Array) => {
    const res = await server.api('/v3/files', {
      method: 'POST',
      body: form({ network: 'public', car: 'true' }, { bytes, name: 'upload.car', type: 'application/vnd.ipld.car' }),
    })
    return { status: res.status, body: (await res.json()) as { data: { cid: string }; error?: string } }
  }

  it('upload - a dag-json root and its json and cbor blocks are verified and kept', async () => {
    const { root, blocks } = await jsonDag()
    const res = await uploadCar(await carBytes([root.cid], blocks))
    expect(res.status).toBe(200)
    expect(res.body.data.cid).toBe(root.cid.toString())
    const stored = await storedBlocks(server, root.cid.toString())
    expect(new Set(stored.blocks.map((b) => b.cid))).toEqual(new Set(blocks.map((b) => b.cid.toString())))
  })

  const refusals: [string, () => Promise<{ roots: CID[]; blocks: { cid: CID; bytes: Uint8Array }[] }>, RegExp][] = [
    [
      'a tampered dag-json block',
      async () => {
        const { root, blocks } = await jsonDag()
        const bytes = new TextEncoder().encode(new TextDecoder().decode(root.bytes).replace('hi', 'ho'))
        return { roots: [root.cid], blocks: blocks.map((b) => (b === root ? { cid: root.cid, bytes } : b)) }
      },
      /hash mismatch/,
    ],
    [
      'a dag-json block whose linked json block is missing',
      async () => {
        const { root, blocks } = await jsonDag()
        return { roots: [root.cid], blocks: blocks.filter((b) => b.cid.code !== JSON_CODE) }
      },
      /missing|reachable/i,
    ],
    [
      'a json block that is not JSON',
      async () => {
        const bad = await block(JSON_CODE, new TextEncoder().encode('{not json'))
        return { roots: [bad.cid], blocks: [bad] }
      },
      /malformed/,
    ],
    [
      'a dag-json block that is not dag-json',
      async () => {
        const bad = await block(dagJson.code, new TextEncoder().encode('{"/":"not a cid"}'))
        return { roots: [bad.cid], blocks: [bad] }
      },
      /malformed/,
    ],
  ]
  for (const [what, build, message] of refusals) {
    it(`upload - refuses ${what} with 400 and stores nothing`, async () => {
      const before = server.blobCount()
      const { roots, blocks } = await build()
      const res = await uploadCar(await carBytes(roots, blocks))
      expect(res.status).toBe(400)
      expect(res.body.error).toMatch(message)
      expect(server.blobCount()).toBe(before)
    })
  }
})
