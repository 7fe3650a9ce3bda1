import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { nonce, uploadInput } from './support/arbitraries.js'
import { KUBO, PROFILES } from './support/kubo-reference.js'
import { expectRawBlocks, materialize, runs } from './support/round-trip.js'
import { anyUploadPath, UPLOAD_PATHS, uploadPath } from './support/upload-paths.js'

/**
 * Every block of an upload's DAG is addressable on its own: `?format=raw` of each block of the
 * root's CAR answers that block, whichever path stored it (the path is drawn per run; the
 * stored shapes differ: file blobs with or without a DAG index, CARs).
 */

describe('raw blocks', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  for (const kind of ['file', 'folder'] as const) {
    for (const profile of PROFILES) {
      const paths = UPLOAD_PATHS.filter((p) => p.kinds.includes(kind) && p.profiles.includes(profile))
      it(`GET /ipfs/{block}?format=raw - answers every block of a ${kind}'s DAG (${profile}), not only the root`, async () => {
        await fc.assert(
          fc.asyncProperty(
            uploadInput(kind, KUBO[profile].chunk, { multiBlock: true }),
            anyUploadPath(paths),
            nonce,
            async (input, via, n) => {
              const upload = await materialize(input, profile, `raw/${via.name}/${profile}/${n}`)
              await expectRawBlocks(server, await uploadPath(via.name).upload(server, upload, profile, via.knobs))
            },
          ),
          { numRuns: runs(3) },
        )
      }, 120_000)
    }
  }
})
