import type { TestApi } from '@pinfold/testing/test-api'
import { carBytes, type FolderFile, folderForm } from '@pinfold/testing/uploads'
import fc from 'fast-check'
import { expect } from 'vitest'
import type { Profile, ReferenceDag } from './kubo-reference.js'

/**
 * Every way a client can store content, each driven as its client drives it, answering the root
 * CID the server reported. Knobs are the client's free choices (field order, chunking, block
 * order), generated with the content so that they vary between runs too.
 */

/** What is uploaded: one file (its name in `files[0].path`) or a folder (paths under one top directory). */
export interface Upload {
  kind: 'file' | 'folder'
  files: (FolderFile & { bytes: Uint8Array })[]
  /** Kubo's DAG of the upload, for the CAR path (which sends blocks, not files). */
  reference: ReferenceDag
}

export interface UploadPath<Knobs> {
  name: string
  kinds: readonly Upload['kind'][]
  profiles: readonly Profile[]
  knobs: fc.Arbitrary<Knobs>
  upload(server: TestApi, upload: Upload, profile: Profile, knobs: Knobs): Promise<string>
}

/** The JSON body of a 200 answer (the server's error, if any, in the failure message). */
async function answer<T>(res: Response): Promise<T> {
  const text = await res.text()
  expect(res.status, `${res.url} answered ${text.slice(0, 300)}`).toBe(200)
  return JSON.parse(text) as T
}

const v3Cid = async (res: Response) => (await answer<{ data: { cid: string } }>(res)).data.cid

/** `POST /v3/files` multipart: a file, or a folder as one part per file; `cid_version` before or after the files. */
const multipart: UploadPath<{ fieldsFirst: boolean }> = {
  name: 'POST /v3/files multipart',
  kinds: ['file', 'folder'],
  profiles: ['v0', 'v1', 'unixfs-v1-2025'],
  knobs: fc.record({ fieldsFirst: fc.boolean() }),
  async upload(server, { files }, profile, { fieldsFirst }) {
    const body = folderForm(files, { network: 'public', cid_version: profile }, { fieldsFirst })
    return v3Cid(await server.api('/v3/files', { method: 'POST', body }))
  },
}

/** Legacy `POST /pinning/pinFileToIPFS`: CIDv0 unless `pinataOptions.cidVersion` is 1 (the SDK's fileArray). */
const legacy: UploadPath<{ implicitV0: boolean }> = {
  name: 'POST /pinning/pinFileToIPFS',
  kinds: ['folder'],
  profiles: ['v0', 'v1'],
  knobs: fc.record({ implicitV0: fc.boolean() }),
  async upload(server, { files }, profile, { implicitV0 }) {
    const options = profile === 'v0' && implicitV0 ? {} : { cidVersion: profile === 'v0' ? 0 : 1 }
    const body = folderForm(files, { pinataOptions: JSON.stringify(options) })
    const res = await server.api('/pinning/pinFileToIPFS', { method: 'POST', body })
    return (await answer<{ IpfsHash: string }>(res)).IpfsHash
  },
}

/**
 * A signed upload URL, POSTed as multipart with no token. The CID version goes where the SDK puts
 * it (a form field), or in `X-Upload-Option-Cid-Version`, the unsigned query parameter the server
 * lets clients add to a signed URL.
 */
const signedUrl: UploadPath<{ cidVersionIn: 'form' | 'query' }> = {
  name: 'signed upload URL',
  kinds: ['file', 'folder'],
  profiles: ['v0', 'v1', 'unixfs-v1-2025'],
  knobs: fc.record({ cidVersionIn: fc.constantFrom('form', 'query') }),
  async upload(server, { files }, profile, { cidVersionIn }) {
    const url = await signedUploadUrl(server)
    if (cidVersionIn === 'query') url.searchParams.set('X-Upload-Option-Cid-Version', profile)
    const body = folderForm(files, cidVersionIn === 'form' ? { cid_version: profile } : {})
    return v3Cid(await server.fetch(url, { method: 'POST', body }))
  },
}

/** A fresh signed upload URL for the public network. */
async function signedUploadUrl(server: TestApi): Promise<URL> {
  const res = await server.api('/v3/files/sign', {
    method: 'POST',
    body: JSON.stringify({ expires: 600, network: 'public' }),
  })
  return new URL((await answer<{ data: string }>(res)).data)
}

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64')

/**
 * tus 1.0: a creation as the SDK sends it for large files (metadata, and the CID version in the
 * query too), on `POST /v3/files` with a token or on a signed URL without one; then PATCHes cut at
 * generated offsets, the last of which reports the CID.
 */
const tus: UploadPath<{ signed: boolean; cuts: number[] }> = {
  name: 'tus',
  kinds: ['file'],
  profiles: ['v0', 'v1', 'unixfs-v1-2025'],
  knobs: fc.record({ signed: fc.boolean(), cuts: fc.array(fc.nat(), { maxLength: 3 }) }),
  async upload(server, { files }, profile, { signed, cuts }) {
    const { path: name, bytes } = files[0]!
    const url = signed ? await signedUploadUrl(server) : new URL(`${server.url}/v3/files`)
    url.searchParams.set('X-Upload-Option-Cid-Version', profile)
    const created = await server.fetch(url, {
      method: 'POST',
      headers: {
        'upload-length': String(bytes.length),
        'upload-metadata': [
          `filename ${base64(name)}`,
          `network ${base64('public')}`,
          `cid_version ${base64(profile)}`,
        ].join(','),
        ...(signed ? {} : { authorization: `Bearer ${await server.token()}` }),
      },
    })
    expect(created.status, await created.clone().text()).toBe(201)
    const location = created.headers.get('location')!
    // PATCH boundaries: the generated cuts inside the file, then its end (an empty file is one empty PATCH)
    const ends = [...new Set([...cuts.map((c) => c % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b)
    let offset = 0
    let last: Response | undefined
    for (const end of ends) {
      if (end === offset && end !== bytes.length) continue
      last = await server.fetch(location, {
        method: 'PATCH',
        headers: {
          'tus-resumable': '1.0.0',
          'content-type': 'application/offset+octet-stream',
          'upload-offset': String(offset),
        },
        body: bytes.subarray(offset, end),
      })
      expect(last.status, `PATCH at ${offset}: ${await last.clone().text()}`).toBe(204)
      offset = end
    }
    const cid = last?.headers.get('upload-cid')
    expect(cid, 'the last PATCH reports upload-cid').toBeTruthy()
    return cid!
  },
}

/** `POST /v3/files` with `car=true`: a CARv1 of Kubo's blocks, in the importer's order (leaves first) or root first. */
const car: UploadPath<{ rootFirst: boolean }> = {
  name: 'CAR upload',
  kinds: ['file', 'folder'],
  profiles: ['v0', 'v1', 'unixfs-v1-2025'],
  knobs: fc.record({ rootFirst: fc.boolean() }),
  async upload(server, { reference }, _profile, { rootFirst }) {
    const blocks = [...reference.blocks.values()]
    if (rootFirst) blocks.reverse()
    const bytes = await carBytes([reference.root], blocks)
    const body = folderForm([{ path: 'upload.car', bytes, type: 'application/vnd.ipld.car' }], {
      network: 'public',
      car: 'true',
    })
    return v3Cid(await server.api('/v3/files', { method: 'POST', body }))
  },
}

// Methods are bivariant in their parameters, so each path's own knobs fit the common type.
export const UPLOAD_PATHS: readonly UploadPath<unknown>[] = [multipart, legacy, signedUrl, tus, car]

export const uploadPath = (name: string) => UPLOAD_PATHS.find((p) => p.name === name)!

/**
 * Any of `paths` with knobs of its own, by name, so that a counterexample prints the path's name
 * rather than its functions.
 */
export const anyUploadPath = (paths: readonly UploadPath<unknown>[]) =>
  fc.constantFrom(...paths.map((p) => p.name)).chain((name) => uploadPath(name).knobs.map((knobs) => ({ name, knobs })))
