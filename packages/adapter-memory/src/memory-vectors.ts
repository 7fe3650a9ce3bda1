import {
  checkEmbedding,
  checkVector,
  embeddingMismatch,
  type FileRecord,
  sameEmbedding,
  throwIfAborted,
  type VectorEmbedding,
  type VectorMatch,
  type VectorRecordStore,
  vectorizedExceeded,
} from '@pinfold/interface'
import { copyFile, type MemoryState } from './memory-state.js'

interface FileVectors {
  /**
   * The record the vectors were stored for. A deleted file's record leaves `state.files`, and a
   * later file can never be the same object, so `state.files.get(id) !== file` marks stale vectors.
   */
  file: FileRecord
  vectors: Float32Array[]
  norms: number[]
}

/**
 * Exact search: a query compares the query vector with every passage of the group's files. The
 * vectors hang off the file *record*; tenant, network and group are read from that record when a
 * query runs, so group moves and deletions need no bookkeeping here.
 */
export function memoryVectorRecords(state: MemoryState): VectorRecordStore {
  const { files, visibleFile } = state
  const byFile = new Map<string, FileVectors>()
  let embedding: VectorEmbedding | undefined

  const current = (fileId: string, entry: FileVectors) => {
    if (files.get(fileId) === entry.file) return true
    byFile.delete(fileId) // the file was deleted: its vectors go with it
    return false
  }

  const requireEmbedding = (given: VectorEmbedding) => {
    if (embedding && !sameEmbedding(embedding, given)) throw embeddingMismatch(embedding, given)
  }

  return {
    async upsertFileVectors(tenantId, network, fileId, given, vectors, options) {
      throwIfAborted(options?.signal)
      checkEmbedding(given)
      requireEmbedding(given)
      vectors.forEach((vector, i) => {
        checkVector(vector, given.dimensions, `vector ${i}`)
      })
      const file = visibleFile(tenantId, network, fileId)
      if (!file) return undefined
      const max = options?.maxVectorizedFiles
      if (max !== undefined && !file.vectorized) {
        let vectorized = 0
        for (const f of files.values()) if (f.tenantId === tenantId && f.vectorized) vectorized += 1
        if (vectorized + 1 > max) throw vectorizedExceeded(max)
      }
      state.appendEvents(options?.events)
      embedding ??= { embedderId: given.embedderId, dimensions: given.dimensions }
      const copies = vectors.map((vector) => Float32Array.from(vector))
      byFile.set(fileId, { file, vectors: copies, norms: copies.map(norm) })
      file.vectorized = true
      return copyFile(file)
    },

    async deleteFileVectors(tenantId, network, fileId, options) {
      throwIfAborted(options?.signal)
      const file = visibleFile(tenantId, network, fileId)
      if (!file) return undefined
      state.appendEvents(options?.events)
      byFile.delete(fileId)
      file.vectorized = false
      return copyFile(file)
    },

    async queryVectors(query, given, options) {
      throwIfAborted(options?.signal)
      checkEmbedding(given)
      requireEmbedding(given)
      checkVector(query.vector, given.dimensions, 'the query vector')
      if (!embedding) return []
      const queryNorm = norm(query.vector)
      const matches: VectorMatch[] = []
      for (const [fileId, entry] of byFile) {
        if (!current(fileId, entry)) continue
        const { file } = entry
        if (file.tenantId !== query.tenantId || file.network !== query.network || file.groupId !== query.groupId) {
          continue
        }
        let best = Number.NEGATIVE_INFINITY
        entry.vectors.forEach((vector, i) => {
          best = Math.max(best, dot(vector, query.vector) / (entry.norms[i]! * queryNorm))
        })
        if (entry.vectors.length > 0) matches.push({ fileId, cid: file.cid, score: best })
      }
      matches.sort((a, b) => b.score - a.score || (a.fileId < b.fileId ? -1 : a.fileId > b.fileId ? 1 : 0))
      return matches.slice(0, Math.max(1, query.limit))
    },

    async getVectorEmbedding(options) {
      throwIfAborted(options?.signal)
      return embedding && { ...embedding }
    },

    async resetVectorIndex(options) {
      throwIfAborted(options?.signal)
      byFile.clear()
      embedding = undefined
      for (const file of files.values()) file.vectorized = false
    },
  }
}

function dot(a: Float32Array, b: Float32Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += a[i]! * b[i]!
  return sum
}

function norm(vector: Float32Array): number {
  return Math.sqrt(dot(vector, vector))
}
