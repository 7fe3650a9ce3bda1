import { createMemoryBlobStore, createMemoryRecordStore } from '@pinfold/adapter-memory'
import { describe, expect, it } from 'vitest'
import {
  type Actor,
  type BlobStore,
  createFileService,
  type Embedder,
  type FileServiceOptions,
  type TextExtractor,
  type UploadItem,
  VECTORIZE_MAX_BYTES,
  VECTORIZE_MAX_PASSAGES,
  type VectorQueryInput,
} from '../../src/index.js'

const alice: Actor = { tenantId: 'acme', userId: 'alice' }
const mallory: Actor = { tenantId: 'evil', userId: 'mallory' }

/** One dimension per known word, plus one for the rest: texts sharing words point the same way. */
const WORDS = ['cat', 'dog', 'fish', 'bird', 'car', 'train', 'cake', 'bread']
function wordEmbedder(id = 'test-words@1'): Embedder & { calls: { texts: readonly string[]; purpose?: string }[] } {
  const calls: { texts: readonly string[]; purpose?: string }[] = []
  return {
    id,
    dimensions: WORDS.length + 1,
    calls,
    async embed(texts, options) {
      calls.push({ texts, purpose: options?.purpose })
      return texts.map((text) => {
        const vector = new Float32Array(WORDS.length + 1)
        vector[WORDS.length] = 0.01
        for (const word of text.toLowerCase().split(/\W+/)) {
          const slot = WORDS.indexOf(word)
          if (slot >= 0) vector[slot]! += 1
        }
        const norm = Math.hypot(...vector)
        return vector.map((value) => value / norm)
      })
    },
  }
}

/** Paragraphs are passages; only text/plain is readable. */
const paragraphs: TextExtractor = async (source, options) => {
  if (!options.mimeType.startsWith('text/')) {
    throw Object.assign(new Error(`cannot extract ${options.mimeType}`), {
      name: 'PinfoldError',
      code: 'INVALID_INPUT',
    })
  }
  let text = ''
  const decoder = new TextDecoder()
  for await (const chunk of source) text += decoder.decode(chunk, { stream: true })
  return text
    .split(/\n\n+/)
    .map((p) => p.trim())
    .filter((p) => p !== '')
}

function setup(options: Partial<FileServiceOptions> = {}) {
  const records = options.records ?? createMemoryRecordStore()
  const blobs = options.blobs ?? createMemoryBlobStore()
  const embedder = wordEmbedder()
  const service = createFileService({ records, blobs, embedder, textExtractor: paragraphs, ...options })
  return { service, records, blobs, embedder }
}

type Service = ReturnType<typeof setup>['service']

async function* bytes(text: string) {
  yield new TextEncoder().encode(text)
}

async function* items(list: UploadItem[]) {
  yield* list
}

async function uploadText(
  service: Service,
  text: string,
  fields: { groupId?: string | null; network?: 'public' | 'private'; actor?: Actor; mimeType?: string } = {},
) {
  const { file } = await service.files.upload(
    fields.actor ?? alice,
    items([
      { kind: 'options', options: { groupId: fields.groupId ?? null, network: fields.network ?? 'private' } },
      { kind: 'file', path: 'notes.txt', mimeType: fields.mimeType ?? 'text/plain', content: bytes(text) },
    ]),
  )
  return file
}

async function groupWithFiles(service: Service, texts: string[], actor = alice) {
  const group = await service.groups.create(actor, 'private', { name: 'docs' })
  const files = []
  for (const text of texts) files.push(await uploadText(service, text, { groupId: group.id, actor }))
  return { group, files }
}

// Core's vector operations over the real memory adapters (core's own tests cannot import them).
describe('vectors service', () => {
  it('vectorize - embeds every passage and marks the file vectorized', async () => {
    const { service, embedder } = setup()
    const { group, files } = await groupWithFiles(service, ['a cat\n\na dog\n\nsome fish'])
    const updated = await service.vectors.vectorize(alice, files[0]!.id)
    expect(updated.vectorized).toBe(true)
    expect((await service.files.get(alice, 'private', files[0]!.id)).vectorized).toBe(true)
    expect(embedder.calls).toEqual([{ texts: ['a cat', 'a dog', 'some fish'], purpose: 'document' }])
    const result = await service.vectors.query(alice, group.id, { text: 'fish' })
    expect(result.count).toBe(1)
    expect(result.matches[0]!.score).toBeCloseTo(1, 3)
  })

  it("query - ranks the group's files by their best passage, best first", async () => {
    const { service, embedder } = setup()
    const { group, files } = await groupWithFiles(service, ['cake and bread', 'car\n\ntrain', 'cat\n\ntrain cake'])
    for (const file of files) await service.vectors.vectorize(alice, file.id)
    const result = await service.vectors.query(alice, group.id, { text: 'a train' })
    expect(result.matches.map((m) => m.fileId)).toEqual([files[1]!.id, files[2]!.id, files[0]!.id])
    expect(result.matches[0]).toEqual({ fileId: files[1]!.id, cid: files[1]!.cid, score: expect.any(Number) })
    expect(result.count).toBe(3)
    expect(embedder.calls.at(-1)).toEqual({ texts: ['a train'], purpose: 'query' })
    const limited = await service.vectors.query(alice, group.id, { text: 'cake', limit: 1 })
    expect(limited).toEqual({ count: 1, matches: [expect.objectContaining({ fileId: files[0]!.id })] })
  })

  it('vectorize - re-vectorizing replaces the vectors', async () => {
    const records = createMemoryRecordStore()
    const { service } = setup({ records })
    const { group, files } = await groupWithFiles(service, ['cat'])
    await service.vectors.vectorize(alice, files[0]!.id)
    await service.vectors.vectorize(alice, files[0]!.id)
    const result = await service.vectors.query(alice, group.id, { text: 'cat' })
    expect(result.matches.map((m) => m.fileId)).toEqual([files[0]!.id])
  })

  it('vectorize - a file in no group is INVALID_INPUT', async () => {
    const { service } = setup()
    const file = await uploadText(service, 'cat')
    await expect(service.vectors.vectorize(alice, file.id)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('group'),
    })
    expect((await service.files.get(alice, 'private', file.id)).vectorized).toBe(false)
  })

  it('vectorize - a public file is INVALID_INPUT; a missing or foreign file is NOT_FOUND', async () => {
    const { service } = setup()
    const publicGroup = await service.groups.create(alice, 'public', { name: 'pub' })
    const publicFile = await uploadText(service, 'cat', { network: 'public', groupId: publicGroup.id })
    await expect(service.vectors.vectorize(alice, publicFile.id)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    const { files } = await groupWithFiles(service, ['cat'], mallory)
    await expect(service.vectors.vectorize(alice, files[0]!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(service.vectors.vectorize(alice, '0190b4c4-0000-7000-8000-000000000000')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(service.vectors.deleteVectors(alice, files[0]!.id)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('vectorize - a folder upload is INVALID_INPUT', async () => {
    const { service } = setup()
    const group = await service.groups.create(alice, 'private', { name: 'docs' })
    const { file } = await service.files.upload(
      alice,
      items([
        { kind: 'options', options: { groupId: group.id } },
        { kind: 'file', path: 'docs/a.txt', content: bytes('cat') },
        { kind: 'file', path: 'docs/b.txt', content: bytes('dog') },
      ]),
    )
    await expect(service.vectors.vectorize(alice, file.id)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringContaining('folder'),
    })
  })

  it('vectorize - content the extractor cannot read, or no text at all, is INVALID_INPUT', async () => {
    const { service } = setup()
    const { files } = await groupWithFiles(service, ['\n\n'])
    await expect(service.vectors.vectorize(alice, files[0]!.id)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    const group = await service.groups.create(alice, 'private', { name: 'images' })
    const image = await uploadText(service, 'not really', { groupId: group.id, mimeType: 'image/png' })
    await expect(service.vectors.vectorize(alice, image.id)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('vectorize - reads at most the extraction cap (plus one byte) of the blob', async () => {
    const inner = createMemoryBlobStore()
    const ranges: unknown[] = []
    const blobs: BlobStore = {
      ...inner,
      put: (key, source, options) => inner.put(key, source, options),
      get: (key, options) => {
        ranges.push(options?.range)
        return inner.get(key, options)
      },
      head: (key, options) => inner.head(key, options),
      delete: (key, options) => inner.delete(key, options),
    }
    const { service } = setup({ blobs })
    const { files } = await groupWithFiles(service, ['cat'])
    await service.vectors.vectorize(alice, files[0]!.id)
    expect(ranges).toEqual([{ offset: 0, length: VECTORIZE_MAX_BYTES + 1 }])
  })

  it('vectorize - embeds in batches and at most the passage cap', async () => {
    const { service, embedder } = setup()
    const text = Array.from({ length: VECTORIZE_MAX_PASSAGES + 50 }, (_, i) => `cat ${i}`).join('\n\n')
    const { files } = await groupWithFiles(service, [text])
    await service.vectors.vectorize(alice, files[0]!.id)
    const sizes = embedder.calls.map((call) => call.texts.length)
    expect(Math.max(...sizes)).toBeLessThanOrEqual(64)
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(VECTORIZE_MAX_PASSAGES)
  })

  it('vectorize and query - without an embedder answer UNAVAILABLE; deleteVectors still works', async () => {
    const { service, records, blobs } = setup()
    const { group, files } = await groupWithFiles(service, ['cat'])
    await service.vectors.vectorize(alice, files[0]!.id)
    const bare = createFileService({ records, blobs })
    await expect(bare.vectors.vectorize(alice, files[0]!.id)).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringContaining('no embedder or textExtractor configured'),
    })
    await expect(bare.vectors.query(alice, group.id, { text: 'cat' })).rejects.toMatchObject({ code: 'UNAVAILABLE' })
    expect((await bare.vectors.deleteVectors(alice, files[0]!.id)).vectorized).toBe(false)
  })

  it('query - another embedder than the one that built the index is a CONFLICT naming both', async () => {
    const { service, records, blobs } = setup()
    const { group, files } = await groupWithFiles(service, ['cat'])
    await service.vectors.vectorize(alice, files[0]!.id)
    const other = createFileService({ records, blobs, embedder: wordEmbedder('other@2'), textExtractor: paragraphs })
    await expect(other.vectors.query(alice, group.id, { text: 'cat' })).rejects.toMatchObject({
      code: 'CONFLICT',
      message: expect.stringMatching(/test-words@1[\s\S]*other@2/),
    })
    await expect(other.vectors.vectorize(alice, files[0]!.id)).rejects.toMatchObject({ code: 'CONFLICT' })
  })

  it('query - bad text or limit is INVALID_INPUT', async () => {
    const { service } = setup()
    const { group } = await groupWithFiles(service, [])
    for (const input of [
      { text: '' },
      { text: '   ' },
      { text: 42 },
      { text: 'x'.repeat(2001) },
      { text: 'cat', limit: 0 },
      { text: 'cat', limit: 21 },
      { text: 'cat', limit: 1.5 },
      { text: 'cat', limit: '3' },
    ]) {
      // as a JavaScript caller or an HTTP body may give it: the types do not hold
      const query = input as VectorQueryInput
      await expect(service.vectors.query(alice, group.id, query), JSON.stringify(input)).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      })
    }
  })

  it("query - an unknown or another tenant's group is NOT_FOUND; a public one INVALID_INPUT", async () => {
    const { service } = setup()
    const { group } = await groupWithFiles(service, ['cat'], mallory)
    await expect(service.vectors.query(alice, group.id, { text: 'cat' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(service.vectors.query(alice, 'nope', { text: 'cat' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const publicGroup = await service.groups.create(alice, 'public', { name: 'pub' })
    await expect(service.vectors.query(alice, publicGroup.id, { text: 'cat' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
  })

  it('deleteVectors - removes the file from query results and clears vectorized', async () => {
    const { service } = setup()
    const { group, files } = await groupWithFiles(service, ['cat', 'cat dog'])
    for (const file of files) await service.vectors.vectorize(alice, file.id)
    expect((await service.vectors.deleteVectors(alice, files[0]!.id)).vectorized).toBe(false)
    const result = await service.vectors.query(alice, group.id, { text: 'cat' })
    expect(result.matches.map((m) => m.fileId)).toEqual([files[1]!.id])
  })

  it('vectorize and deleteVectors - each is in the audit log; removing vectors a file lacks records nothing', async () => {
    const { service } = setup()
    const { files } = await groupWithFiles(service, ['a cat\n\na dog'])
    const file = files[0]!
    await service.vectors.vectorize({ ...alice, requestId: 'req-vec' }, file.id)
    await service.vectors.deleteVectors(alice, file.id)
    await service.vectors.deleteVectors(alice, file.id)
    const { events } = await service.events.list(alice, {
      types: ['file.vectorized', 'file.vectors_deleted'],
      order: 'asc',
    })
    expect(events).toMatchObject([
      {
        type: 'file.vectorized',
        requestId: 'req-vec',
        actor: { kind: 'user', id: 'alice' },
        target: { kind: 'file', id: file.id },
        data: { cid: file.cid, name: file.name, passages: 2, embedder: 'test-words@1' },
      },
      { type: 'file.vectors_deleted', target: { kind: 'file', id: file.id } },
    ])
    expect((await service.events.list(mallory)).events).toEqual([])
  })

  it('files.delete and groups.removeFile - take the vectors out of the group', async () => {
    const { service } = setup()
    const { group, files } = await groupWithFiles(service, ['cat', 'cat dog', 'cat fish'])
    for (const file of files) await service.vectors.vectorize(alice, file.id)
    await service.files.delete(alice, 'private', files[0]!.id)
    await service.groups.removeFile(alice, 'private', group.id, files[1]!.id)
    const result = await service.vectors.query(alice, group.id, { text: 'cat' })
    expect(result.matches.map((m) => m.fileId)).toEqual([files[2]!.id])
  })
})
