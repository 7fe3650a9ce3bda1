import { describeBlobStore } from '@pinfold/conformance'
import { createMemoryBlobStore } from '../src/index.js'

describeBlobStore(
  'memory',
  async () => {
    const store = createMemoryBlobStore()
    return {
      store,
      probe: {
        exists: async (key) => store.has(key),
        count: async () => store.count + store.stagedParts,
      },
    }
  },
  { list: true, staged: true },
)
