export {
  createMemoryBlobStore,
  type MemoryBlobStore,
} from './memory-blob-store.js'
