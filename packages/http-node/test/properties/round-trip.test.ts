import fc from 'fast-check'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { nonce, rangeCase, uploadInput } from './support/arbitraries.js'
import { KUBO } from './support/kubo-reference.js'
import { expectRoundTrip, materialize, runs } from './support/round-trip.js'
import { UPLOAD_PATHS } from './support/upload-paths.js'

/**
 * Files (sizes around the profile's chunk, up to several MiB) and folder trees (depth ≤ 4, 1–30
 * files, names with spaces, URL-special and non-ASCII characters), through every upload path
 * that takes them, for every CID profile: Kubo's CID, byte-exact reads and ranges, and a
 * verifiable CAR that reassembles every file.
 */

describe('round trip', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  for (const kind of ['file', 'folder'] as const) {
    for (const path of UPLOAD_PATHS.filter((p) => p.kinds.includes(kind))) {
      for (const profile of path.profiles) {
        it(`${path.name} - a ${kind} (${profile}) gets Kubo's CID and reads back whole, by range and from its CAR`, async () => {
          await fc.assert(
            fc.asyncProperty(
              uploadInput(kind, KUBO[profile].chunk),
              rangeCase,
              path.knobs,
              nonce,
              async (input, range, knobs, n) => {
                const upload = await materialize(input, profile, `${path.name}/${profile}/${n}`)
                await expectRoundTrip(server, upload, await path.upload(server, upload, profile, knobs), range)
              },
            ),
            { numRuns: runs(4) },
          )
        }, 120_000)
      }
    }
  }
})
