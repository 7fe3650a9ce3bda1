import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describeBlobStore } from '@pinfold/conformance'
import { createFsBlobStore } from '../src/index.js'
import { countFiles } from './count-files.js'

describeBlobStore(
  'fs',
  async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'pinfold-fs-'))
    const store = createFsBlobStore({ directory })
    return {
      store,
      probe: {
        exists: (key) =>
          stat(store.pathOf(key)).then(
            (info) => info.isFile(),
            () => false,
          ),
        count: () => countFiles(directory),
      },
      reopen: () => createFsBlobStore({ directory }),
      close: () => rm(directory, { recursive: true, force: true }),
    }
  },
  { list: true, staged: true },
)
