import type { Actor, FileRecord, FileService, KeyValues, PinRequestRecord, UploadItem } from '@pinfold/core'
import { notFound } from '@pinfold/core'
import type { Static } from 'typebox'
import { jsonResponse, okText } from '../../openapi/responses.js'
import { json, plainText } from '../../responses.js'
import { defineRoute } from '../../router.js'
import { sortOrder } from '../../schema.js'
import { pinJobToWire, queueFilter } from '../pins/wire.js'
import { LegacyPin, legacyPinToWire } from '../uploads/wire.js'
import {
  HashMetadataInput,
  MAX_PIN_JSON_BYTES,
  PinByHashAnswer,
  PinByHashInput,
  PinJobRows,
  PinJobsQuery,
  PinJsonInput,
  pinByHashToWire,
} from './wire.js'

/**
 * Pinata's legacy pinning API, each route mapped onto the operation the v3 API uses: uploads
 * (`pinJSONToIPFS`), the pin-by-CID queue (`pinByHash`, `pinJobs`), and file updates and deletes
 * by CID (`hashMetadata`, `unpin`). The legacy API is public IPFS only.
 */

/** Every public file of the tenant with this CID (a tenant may hold a CID more than once). */
async function filesWithCid(service: FileService, actor: Actor, cid: string, signal: AbortSignal) {
  const files: FileRecord[] = []
  let pageToken: string | undefined
  do {
    const page = await service.files.list(actor, 'public', { cid, limit: 1000, pageToken }, { signal })
    files.push(...page.files)
    pageToken = page.nextPageToken || undefined
  } while (pageToken)
  return files
}

/** The tenant's pin-by-CID requests for this CID that are not pinned yet. */
async function pendingWithCid(service: FileService, actor: Actor, cid: string, signal: AbortSignal) {
  const requests: PinRequestRecord[] = []
  let pageToken: string | undefined
  do {
    const page = await service.pins.list(
      actor,
      { states: ['queued', 'retrieving', 'failed'], cids: [cid], limit: 1000, pageToken },
      { signal },
    )
    requests.push(...page.requests)
    pageToken = page.nextPageToken || undefined
  } while (pageToken)
  return requests
}

/** One JSON file, as `pinJSONToIPFS` pins it: the content serialised, named by its metadata. */
async function* jsonItems(body: Static<typeof PinJsonInput>): AsyncGenerator<UploadItem> {
  const { pinataContent, pinataMetadata, pinataOptions } = body
  const cidVersion = pinataOptions?.cidVersion
  yield {
    kind: 'options',
    options: {
      network: 'public',
      cidVersion: cidVersion !== undefined && cidVersion !== null && Number(cidVersion) === 1 ? 'v1' : 'v0',
      name: pinataMetadata?.name || 'data.json',
      ...(pinataMetadata?.keyvalues && { keyvalues: pinataMetadata.keyvalues as KeyValues }),
      ...(pinataOptions?.groupId && { groupId: pinataOptions.groupId }),
    },
  }
  const bytes = new TextEncoder().encode(JSON.stringify(pinataContent))
  yield { kind: 'file', path: 'data.json', mimeType: 'application/json', content: once(bytes) }
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}

export const legacyPinningRoutes = [
  defineRoute({
    method: 'POST',
    path: '/pinning/pinJSONToIPFS',
    auth: 'org:files:write',
    summary: 'Pin JSON (legacy)',
    tags: ['Uploads'],
    description: 'Pins `pinataContent` as a JSON file on public IPFS (CIDv0 unless `pinataOptions.cidVersion` is 1).',
    request: { body: PinJsonInput, maxBodyBytes: MAX_PIN_JSON_BYTES },
    responses: { '200': jsonResponse('Pinned (not wrapped in `data`)', LegacyPin) },
    async handle({ service, actor, signal }, { body }) {
      const { file, isDuplicate } = await service.files.upload(actor, jsonItems(body), { signal })
      return json(legacyPinToWire(file, isDuplicate))
    },
  }),
  defineRoute({
    method: 'POST',
    path: '/pinning/pinByHash',
    auth: 'org:files:write',
    summary: 'Pin by CID (legacy)',
    tags: ['Pin by CID'],
    description: 'Queues the same request as `POST /v3/files/public/pin_by_cid`.',
    request: { body: PinByHashInput },
    responses: { '200': jsonResponse('Queued (not wrapped in `data`)', PinByHashAnswer) },
    async handle({ service, actor, signal }, { body }) {
      const { hashToPin, pinataMetadata, pinataOptions } = body
      const hostNodes = pinataOptions?.hostNodes
      const request = await service.pins.add(
        actor,
        {
          cid: hashToPin,
          name: pinataMetadata?.name || undefined,
          groupId: pinataOptions?.groupId || undefined,
          keyvalues: pinataMetadata?.keyvalues ?? undefined,
          hostNodes: Array.isArray(hostNodes) ? hostNodes : undefined,
        },
        { signal },
      )
      return json(pinByHashToWire(request))
    },
  }),
  defineRoute({
    method: 'PUT',
    path: '/pinning/hashMetadata',
    auth: 'org:files:write',
    summary: 'Change the name and keyvalues of a CID (legacy)',
    tags: ['Files'],
    description:
      "Renames every public file of the CID and merges `keyvalues` into each one's (a null value removes its key).",
    request: { body: HashMetadataInput },
    responses: okText('Updated'),
    async handle({ service, actor, signal }, { body }) {
      const files = await filesWithCid(service, actor, body.ipfsPinHash, signal)
      if (files.length === 0) throw notFound('pin of this CID')
      const update = { name: body.name, keyvalues: body.keyvalues ?? undefined }
      for (const file of files) await service.files.update(actor, 'public', file.id, update, { signal })
      return plainText('OK')
    },
  }),
  defineRoute({
    method: 'DELETE',
    path: '/pinning/unpin/:cid',
    auth: 'org:files:write',
    summary: 'Unpin a CID (legacy)',
    tags: ['Files'],
    description: 'Deletes every public file of the CID and every pin-by-CID request for it not pinned yet.',
    responses: okText('Unpinned'),
    async handle({ service, actor, signal }, { params }) {
      const files = await filesWithCid(service, actor, params.cid, signal)
      const pending = await pendingWithCid(service, actor, params.cid, signal)
      if (files.length === 0 && pending.length === 0) throw notFound('pin of this CID')
      for (const file of files) await service.files.delete(actor, 'public', file.id, { signal })
      for (const request of pending) await service.pins.remove(actor, request.id, { signal })
      return plainText('OK')
    },
  }),
  defineRoute({
    method: 'GET',
    path: '/pinning/pinJobs',
    auth: 'org:files:read',
    summary: 'The pin-by-CID queue (legacy)',
    tags: ['Pin by CID'],
    description: 'The queue of `GET /v3/files/public/pin_by_cid`, paged by `offset`, oldest first unless `sort` says.',
    request: { query: PinJobsQuery },
    responses: { '200': jsonResponse('Jobs (not wrapped in `data`)', PinJobRows) },
    async handle({ service, actor, signal }, { query }) {
      const filter = queueFilter(query.status)
      if (!filter) return json({ rows: [] })
      const order = sortOrder(query.sort) ?? 'ASC'
      const limit = query.limit ?? 5
      // the queue pages by token: the skipped jobs are walked past, a page of at most 1000 at a time
      let skip = query.offset ?? 0
      const pinHash = query.ipfs_pin_hash === undefined ? undefined : [query.ipfs_pin_hash]
      let pageToken: string | undefined
      while (skip > 0) {
        const page = await service.pins.list(
          actor,
          { ...filter, cids: pinHash, order, limit: Math.min(skip, 1000), pageToken },
          { signal },
        )
        skip -= page.requests.length
        pageToken = page.nextPageToken || undefined
        if (!pageToken) return json({ rows: [] })
      }
      const { requests } = await service.pins.list(
        actor,
        { ...filter, cids: pinHash, order, limit, pageToken },
        { signal },
      )
      return json({ rows: requests.map(pinJobToWire) })
    },
  }),
]
