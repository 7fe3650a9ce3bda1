import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { nonce, rangeCase, segment } from './support/arbitraries.js'
import { KUBO } from './support/kubo-reference.js'
import { expectRoundTrip, materialize, runs } from './support/round-trip.js'
import { anyUploadPath, UPLOAD_PATHS, uploadPath } from './support/upload-paths.js'

/**
 * A file of more than 174 leaves (≈ 44 MiB), so that its DAG has a second level of file nodes:
 * the CID, reads, ranges and CAR as in `round-trip.test.ts`. One case costs seconds, so each run
 * draws its profile and one upload path that takes a file, and a failure is reported as found,
 * without shrinking (every smaller case would be another 44 MiB round trip). unixfs-v1-2025
 * needs over 1 GiB for two levels and is left out.
 */

const PROFILES = ['v0', 'v1'] as const
const paths = UPLOAD_PATHS.filter((p) => p.kinds.includes('file'))

describe('round trip of a two-level file', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it("upload - a file of 175–176 leaves gets Kubo's two-level DAG and reads back whole, by range and from its CAR", async () => {
    const input = fc.constantFrom(...PROFILES).chain((profile) => {
      const { chunk, links } = KUBO[profile]
      // one leaf past a full file node, up to two
      const file = fc.record({
        size: fc.integer({ min: links * chunk + 1, max: (links + 2) * chunk }),
        seed: fc.nat(3),
      })
      return fc.record({ profile: fc.constant(profile), name: segment, file })
    })
    await fc.assert(
      fc.asyncProperty(
        input,
        rangeCase,
        anyUploadPath(paths),
        nonce,
        async ({ profile, name, file }, range, via, n) => {
          const upload = await materialize({ kind: 'file', name, file }, profile, `two-level/${via.name}/${n}`)
          const root = await uploadPath(via.name).upload(server, upload, profile, via.knobs)
          await expectRoundTrip(server, upload, root, range)
        },
      ),
      { numRuns: runs(2), endOnFailure: true },
    )
  }, 120_000)
})
