import * as dagCbor from '@ipld/dag-cbor'
import { varint } from 'multiformats'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, it } from 'vitest'
import { importCar } from '../../src/content/dag/import-car.js'
import { blobStore } from '../support/blob-store.js'

const MiB = 1024 * 1024

const varintBytes = (value: number) => {
  const out = new Uint8Array(varint.encodingLength(value))
  varint.encodeTo(value, out, 0)
  return out
}
const section = (body: Uint8Array) => Buffer.concat([varintBytes(body.length), body])

/** A CARv1 header naming one root, then the start of a section that declares `declared` bytes. */
async function hostileCarV1(declared: number): Promise<Uint8Array> {
  const cid = CID.createV1(0x55, await sha256.digest(new Uint8Array([1])))
  const header = section(dagCbor.encode({ roots: [cid], version: 1 }))
  return Buffer.concat([header, varintBytes(declared), cid.bytes])
}

/** A CARv2 (pragma, fixed header) wrapping `v1`, which it says is `dataSize` bytes long. */
function carV2(v1: Uint8Array, dataSize: number): Uint8Array {
  const pragma = section(dagCbor.encode({ version: 2 }))
  const fixed = Buffer.alloc(40) // 16 bytes of characteristics, then data offset, data size, index offset
  fixed.writeBigUInt64LE(BigInt(pragma.length + 40), 16)
  fixed.writeBigUInt64LE(BigInt(dataSize), 24)
  return Buffer.concat([pragma, fixed, v1])
}

/** `prefix`, then zeros up to `total` bytes, counting what the reader pulls. */
function counted(prefix: Uint8Array, total: number) {
  const state = { pulled: 0 }
  async function* source() {
    state.pulled += prefix.length
    yield prefix
    const zeros = new Uint8Array(64 * 1024)
    while (state.pulled < total) {
      state.pulled += zeros.length
      yield zeros
    }
  }
  return { source: source(), state }
}

describe('importCar - declared lengths are bounded before they are read', () => {
  // 32 MiB of body behind each oversized declaration: the unguarded reader pulls all of it into memory
  const body = 32 * MiB

  it('importCar - a first section declaring 400 MiB is refused after a few KiB', async () => {
    const { source, state } = counted(await hostileCarV1(400 * MiB), body)
    const { store, blobs } = blobStore()
    await expect(importCar(store, 'car', source)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/block declares \d+ bytes, more than the 2097152 allowed/),
    })
    expect(state.pulled).toBeLessThan(256 * 1024)
    expect(blobs.size).toBe(0)
  })

  it('importCar - a CARv2 whose inner first section declares 400 MiB is refused after a few KiB', async () => {
    const { source, state } = counted(carV2(await hostileCarV1(400 * MiB), 500 * MiB), body)
    const { store, blobs } = blobStore()
    await expect(importCar(store, 'car', source)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/block declares/),
    })
    expect(state.pulled).toBeLessThan(256 * 1024)
    expect(blobs.size).toBe(0)
  })

  it('importCar - a header declaring 400 MiB is refused after a few KiB', async () => {
    const { source, state } = counted(varintBytes(400 * MiB), body)
    await expect(importCar(blobStore().store, 'car', source)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/header declares \d+ bytes, more than the 4096 allowed/),
    })
    expect(state.pulled).toBeLessThan(256 * 1024)
  })
})
