import { describe, expect, it } from 'vitest'
import { createTransformersEmbedder } from '../src/index.js'

const specifier: string = '@huggingface/transformers'
const installed = await import(specifier).then(
  () => true,
  () => false,
)

describe('createTransformersEmbedder', () => {
  it.skipIf(installed)('embed - explains how to install @huggingface/transformers when it is absent', async () => {
    const embedder = createTransformersEmbedder({
      modelPath: '/nonexistent',
      model: 'all-MiniLM-L6-v2',
      dimensions: 384,
    })
    expect(embedder).toMatchObject({ dimensions: 384, id: 'transformers:all-MiniLM-L6-v2/fp32/mean@384' })
    await expect(embedder.embed(['hello'])).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/optional peer dependency @huggingface\/transformers.*not installed/),
    })
  })

  it.runIf(installed)('embed - reports a missing local model without downloading it', async () => {
    const embedder = createTransformersEmbedder({ modelPath: '/nonexistent', model: 'no-such-model', dimensions: 384 })
    await expect(embedder.embed(['hello'])).rejects.toThrow(/no-such-model/)
  })
})
