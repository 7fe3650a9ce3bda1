import { createLocalEmbedder } from '@pinfold/embedders'
import type { TestApi } from '@pinfold/testing/test-api'
import { privateGroupWithTexts, queryGroup, startVectorApi } from '@pinfold/testing/vectors'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// END-TO-END WITH THE REAL DEFAULT EMBEDDER. The first run on a machine parses the 300 MB word-vector
// package into a cache under os.tmpdir() (10–20 s); later runs read the cache in under a second.
const DOCS = [
  'Migraine: a throbbing headache on one side of the head, often with nausea and sensitivity to light.',
  'How to change a flat tyre: loosen the wheel nuts, jack up the car, swap in the spare wheel.',
  'Sourdough bread needs a lively starter, a long slow rise and a very hot oven.',
]

describe('vectors with the local embedder (end to end)', () => {
  let server: TestApi
  beforeAll(async () => {
    server = await startVectorApi({ embedder: createLocalEmbedder({ logger: { warn: () => {} } }) })
  })
  afterAll(() => server.close())

  it('POST /v3/vectorize/groups/query - finds documents by meaning, not shared words', {
    timeout: 60_000,
  }, async () => {
    const { groupId, files } = await privateGroupWithTexts(server, DOCS)
    for (const file of files) {
      const res = await server.api(`/v3/vectorize/files/${file.id}`, { method: 'POST' })
      expect(res.status).toBe(200)
    }
    const pain = await queryGroup(server, groupId, { text: 'severe pain in my skull' })
    expect(pain.body.data.matches[0]?.file_id).toBe(files[0]!.id)
    const baking = await queryGroup(server, groupId, { text: 'baking a loaf' })
    expect(baking.body.data.matches[0]?.file_id).toBe(files[2]!.id)
    const puncture = await queryGroup(server, groupId, { text: 'my automobile has a puncture' })
    expect(puncture.body.data.matches[0]?.file_id).toBe(files[1]!.id)
  })
})
