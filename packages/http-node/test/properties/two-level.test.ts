import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { nonce, rangeCase, segment } from './support/arbitraries.js'
import { KUBO } from './support/kubo-reference.js'
import { expectRoundTrip, materialize, runs } from './support/round-trip.js'
import { anyUploadPath, UPLOAD_PATHS, uploadPath } from './support/upload-paths.js'

/**
 * A file of more than 174 leaves (≈ 44 MiB), so that its DAG has a second level of file nodes:
 * the CID, reads, ranges and CAR as in `round-trip.test.ts`. Each case is expensive, so each run
 * draws one upload path that takes a file. unixfs-v1-2025 needs over 1 GiB for two levels and
 * is left out.
 */

describe('round trip of a two-level file', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  for (const profile of ['v0', 'v1'] as const) {
    const { chunk, links } = KUBO[profile]
    const paths = UPLOAD_PATHS.filter((p) => p.kinds.includes('file') && p.profiles.includes(profile))
    // one to two leaves past a full file node
    const file = fc.record({ size: fc.integer({ min: links * chunk + 1, max: (links + 2) * chunk }), seed: fc.nat(3) })
    it(`upload - a file of ${links}+ leaves (${profile}) gets Kubo's two-level DAG and reads back whole, by range and from its CAR`, async () => {
      await fc.assert(
        fc.asyncProperty(segment, file, rangeCase, anyUploadPath(paths), nonce, async (name, file, range, via, n) => {
          const upload = await materialize({ kind: 'file', name, file }, profile, `two-level/${via.name}/${n}`)
          await expectRoundTrip(
            server,
            upload,
            await uploadPath(via.name).upload(server, upload, profile, via.knobs),
            range,
          )
        }),
        { numRuns: runs(1) },
      )
    }, 120_000)
  }
})
