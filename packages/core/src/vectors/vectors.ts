import type { Actor, CallOptions, Embedder, FileRecord, Network, VectorEmbedding } from '@pinfold/interface'
import { invalid, MAX_VECTOR_QUERY_LIMIT, notFound, PinfoldError, throwIfAborted } from '@pinfold/interface'
import { type EventFacts, fileFacts, tenantEvent } from '../events/new-event.js'
import { admitVectorizedFile } from '../quotas/vectorized.js'
import type { ServiceContext } from '../service/context.js'
import type { VectorOperations } from './api.js'

/** What the vector operations use of the service. */
export type VectorSettings = Pick<ServiceContext, 'records' | 'blobs' | 'features' | 'quotaDefaults'>

/** A vector change's entry: the file it concerns, as `fileFacts` names one, and what was embedded. */
function vectorFacts(type: string, file: FileRecord, data: Record<string, unknown> = {}): EventFacts {
  const facts = fileFacts(type, file)
  return { ...facts, data: { cid: file.cid, name: file.name, ...data } }
}

/** Vectors are a feature of private files (as at Pinata): files and groups are looked up there. */
const NETWORK: Network = 'private'

/** Bytes of a file read for its text; readable text beyond is ignored (JSON and PDF beyond are refused). */
export const VECTORIZE_MAX_BYTES = 10 * 1024 * 1024
/** Passages embedded per file at most (the first ones); about 800 KB of text at the default passage size. */
export const VECTORIZE_MAX_PASSAGES = 1000
/** Texts sent to the embedder per call. */
const EMBED_BATCH = 64
/** Longest query text, in characters. */
export const MAX_QUERY_CHARS = 2000

/**
 * Semantic vectors: vectorize a private file (its text, passage by passage, through the configured
 * embedder), delete its vectors, and rank the files of a group by their meaning's similarity to a
 * text. Needs an `embedder` and a `textExtractor` in `createFileService`; without them vectorizing and
 * querying answer `UNAVAILABLE`.
 */
export function createVectorOperations(ctx: VectorSettings): VectorOperations {
  const embeddingOf = (embedder: Embedder): VectorEmbedding => ({
    embedderId: embedder.id,
    dimensions: embedder.dimensions,
  })

  /** The actor's private file; a public one gets a clear 400 rather than a puzzling 404. */
  async function privateFile(actor: Actor, fileId: string, options: CallOptions): Promise<FileRecord> {
    const file = await ctx.records.files.getFile(actor.tenantId, NETWORK, fileId, options)
    if (file) return file
    if (await ctx.records.files.getFile(actor.tenantId, 'public', fileId, options)) {
      throw invalid('vectors are available for private files only; this file is on the public network')
    }
    throw notFound('file')
  }

  async function embed(embedder: Embedder, texts: string[], purpose: 'document' | 'query', signal?: AbortSignal) {
    const vectors: Float32Array[] = []
    for (let i = 0; i < texts.length; i += EMBED_BATCH) {
      throwIfAborted(signal)
      const batch = texts.slice(i, i + EMBED_BATCH)
      const embedded = await embedder.embed(batch, { signal, purpose })
      if (embedded.length !== batch.length) {
        throw new PinfoldError(
          'INTERNAL',
          `embedder "${embedder.id}" returned ${embedded.length} vectors for ${batch.length} texts`,
        )
      }
      vectors.push(...embedded)
    }
    return vectors
  }

  return {
    async vectorize(actor, fileId, options = {}) {
      const { embedder, textExtractor: extract } = ctx.features.require('vectors')
      const file = await privateFile(actor, fileId, options)
      if (file.groupId === null) {
        throw invalid('the file must be in a group to be vectorized: add it to a group first')
      }
      const content = await ctx.records.files.getContent(file.cid, options)
      if (!content) throw notFound('file')
      if (content.kind === 'car') {
        throw invalid('cannot vectorize a folder or CAR upload: vectorize the files inside it, uploaded on their own')
      }
      // before the costly part; re-vectorizing a file takes no more room
      const maxVectorizedFiles = file.vectorized ? undefined : await admitVectorizedFile(ctx, actor.tenantId, options)
      // One byte past the cap tells the extractor the file was cut (it refuses a cut JSON or PDF).
      const bytes = await ctx.blobs.get(content.blobKey, {
        signal: options.signal,
        range: { offset: 0, length: VECTORIZE_MAX_BYTES + 1 },
      })
      const passages = await extract(bytes, {
        mimeType: file.mimeType,
        fileName: file.name,
        maxBytes: VECTORIZE_MAX_BYTES,
        tenant: actor.tenantId,
        signal: options.signal,
      })
      if (passages.length === 0) throw invalid('the file holds no text to vectorize')
      const vectors = await embed(embedder, passages.slice(0, VECTORIZE_MAX_PASSAGES), 'document', options.signal)
      const updated = await ctx.records.vectors.upsertFileVectors(
        actor.tenantId,
        NETWORK,
        file.id,
        embeddingOf(embedder),
        vectors,
        {
          ...options,
          maxVectorizedFiles,
          events: [
            tenantEvent(
              actor,
              vectorFacts('file.vectorized', file, { passages: vectors.length, embedder: embedder.id }),
            ),
          ],
        },
      )
      if (!updated) throw notFound('file') // deleted while it was being read
      return updated
    },

    async deleteVectors(actor, fileId, options = {}) {
      const file = await privateFile(actor, fileId, options)
      // removing vectors a file does not have changes nothing, and records nothing
      const events = file.vectorized ? [tenantEvent(actor, vectorFacts('file.vectors_deleted', file))] : []
      const updated = await ctx.records.vectors.deleteFileVectors(actor.tenantId, NETWORK, fileId, {
        ...options,
        events,
      })
      if (!updated) throw notFound('file')
      return updated
    },

    async query(actor, groupId, input, options = {}) {
      const { embedder } = ctx.features.require('vectors')
      if (typeof input.text !== 'string' || input.text.trim() === '') throw invalid('text must be a non-empty string')
      if (input.text.length > MAX_QUERY_CHARS) throw invalid(`text must be at most ${MAX_QUERY_CHARS} characters`)
      const limit = input.limit ?? MAX_VECTOR_QUERY_LIMIT
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_VECTOR_QUERY_LIMIT) {
        throw invalid(`limit must be an integer from 1 to ${MAX_VECTOR_QUERY_LIMIT}`)
      }
      if (!(await ctx.records.groups.getGroup(actor.tenantId, NETWORK, groupId, options))) {
        if (await ctx.records.groups.getGroup(actor.tenantId, 'public', groupId, options)) {
          throw invalid('vectors are available for private groups only; this group is on the public network')
        }
        throw notFound('group')
      }
      const [vector] = await embed(embedder, [input.text], 'query', options.signal)
      const matches = await ctx.records.vectors.queryVectors(
        { tenantId: actor.tenantId, network: NETWORK, groupId, vector: vector!, limit },
        embeddingOf(embedder),
        options,
      )
      return { count: matches.length, matches }
    },
  }
}
