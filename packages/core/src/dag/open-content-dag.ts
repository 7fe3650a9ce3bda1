import type { ContentRecord } from '../model.js'
import type { BlobStore } from '../ports.js'
import { createCarDag } from './car-dag.js'
import type { ContentDag } from './content-dag.js'
import { openFileDag } from './file-dag.js'

/** The DAG of any stored content, whatever its blob layout. */
export function openContentDag(content: ContentRecord, blobs: BlobStore): ContentDag {
  switch (content.kind) {
    case 'file':
      return openFileDag(content, blobs)
    case 'car':
      return createCarDag(blobs, content)
  }
}
