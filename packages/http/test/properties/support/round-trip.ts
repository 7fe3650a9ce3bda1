import { readVerifiedCar } from '@pinfold/testing/gateway'
import type { TestApi } from '@pinfold/testing/test-api'
import { CID } from 'multiformats/cid'
import { expect } from 'vitest'
import { fileBytes, type RangeCase, rangeOf, type UploadInput } from './arbitraries.js'
import { type Profile, referenceDag } from './kubo-reference.js'
import type { Upload } from './upload-paths.js'

/** A generated file or folder as bytes, with Kubo's DAG of it. */
export async function materialize(input: UploadInput, profile: Profile, salt: string): Promise<Upload> {
  if (input.kind === 'file') {
    const bytes = fileBytes(salt, input.file)
    return {
      kind: 'file',
      files: [{ path: input.name, bytes }],
      reference: await referenceDag([{ content: bytes }], profile),
    }
  }
  const { top, files } = input.folder
  const uploaded = files.map((f) => ({ path: `${top}/${f.path}`, bytes: fileBytes(salt, f) }))
  const reference = await referenceDag(
    uploaded.map((f) => ({ path: f.path, content: f.bytes })),
    profile,
    { top },
  )
  return { kind: 'folder', files: uploaded, reference }
}

/** Fails with where the first difference lies (vitest would truncate a long diff of two buffers). */
function expectSameBytes(actual: Uint8Array, expected: Uint8Array, what: string) {
  const shorter = Math.min(actual.length, expected.length)
  let at = 0
  while (at < shorter && actual[at] === expected[at]) at++
  const same = at === shorter && actual.length === expected.length
  expect(same, `${what}: ${actual.length} bytes, expected ${expected.length}; first difference at byte ${at}`).toBe(
    true,
  )
}

/**
 * Ranges every round trip reads besides its generated one, because a random range seldom lands on
 * them: the first byte alone (`bytes=0-0`, which s3rver once answered with the whole object), the
 * last byte alone, and the two bytes around the first 256 KiB leaf boundary (wrapped into the file
 * when it is shorter).
 */
const EDGE_RANGES: readonly RangeCase[] = [
  { form: 'closed', start: 0, length: 0 },
  { form: 'suffix', start: 0, length: 0 },
  { form: 'closed', start: 256 * 1024 - 1, length: 1 },
]

const body = async (res: Response) => new Uint8Array(await res.arrayBuffer())

/**
 * The round trip of an upload whose server-reported root is `root`:
 * 1. the root is the CID Kubo gives the same input with the same profile;
 * 2. every file reads back byte-exact at `/ipfs/{root}/{path}`, and a `Range` of it exactly (the
 *    generated one and {@link EDGE_RANGES});
 * 3. `?format=car` of the root holds Kubo's blocks, each once, each hashing to its CID, and
 *    those blocks alone reassemble every file.
 */
export async function expectRoundTrip(server: TestApi, upload: Upload, root: string, range: RangeCase) {
  const { reference } = upload
  const kubo = reference.root.toString()
  expect(root, `the server's root ${root} is Kubo's ${kubo}`).toBe(kubo)
  // a file upload is read at the root; a folder's files below it, without the top directory
  const files = upload.files.map((f) => ({
    ...f,
    below: upload.kind === 'file' ? '' : f.path.slice(f.path.indexOf('/') + 1),
  }))

  for (const { path, bytes, below } of files) {
    const url = `${server.url}/ipfs/${root}${below ? `/${below.split('/').map(encodeURIComponent).join('/')}` : ''}`
    const whole = await server.fetch(url)
    expect(whole.status, `GET ${path}`).toBe(200)
    expectSameBytes(await body(whole), bytes, `GET ${path}`)
    if (bytes.length === 0) continue
    const spans = new Map([range, ...EDGE_RANGES].map((r) => rangeOf(r, bytes.length)).map((s) => [s.header, s]))
    for (const { header, from, to } of spans.values()) {
      const ranged = await server.fetch(url, { headers: { range: header } })
      expect(ranged.status, `GET ${path} with ${header}`).toBe(206)
      expect(ranged.headers.get('content-range'), `GET ${path} with ${header}`).toBe(
        `bytes ${from}-${to}/${bytes.length}`,
      )
      expectSameBytes(await body(ranged), bytes.subarray(from, to + 1), `GET ${path} with ${header}`)
    }
  }

  const car = await carOf(server, root)
  const cids = car.blocks.map((b) => b.cid.toString())
  expect(new Set(cids).size, 'the CAR holds each block once').toBe(cids.length)
  expect([...cids].sort(), "the CAR's blocks are Kubo's").toEqual([...reference.blocks.keys()].sort())
  for (const { path, bytes, below } of files) {
    // the exporter takes names as they are (no escaping; none holds a "/")
    const file = below ? `${root}/${below}` : CID.parse(root)
    expectSameBytes(await car.readFile(file), bytes, `${path} from the CAR's blocks`)
  }
}

/** `?format=car` of `root`, every block re-hashed against its CID (`readVerifiedCar` throws otherwise). */
async function carOf(server: TestApi, root: string) {
  const res = await server.fetch(`${server.url}/ipfs/${root}?format=car`)
  expect(res.status, 'GET ?format=car').toBe(200)
  const car = await readVerifiedCar(await body(res))
  expect(car.roots.map(String), 'the CAR names the root').toEqual([root])
  return car
}

/** `?format=raw` of every block of the root's CAR answers that block: each block is addressable on its own. */
export async function expectRawBlocks(server: TestApi, root: string) {
  for (const block of (await carOf(server, root)).blocks) {
    const raw = await server.fetch(`${server.url}/ipfs/${block.cid}?format=raw`)
    expect(raw.status, `GET /ipfs/${block.cid}?format=raw`).toBe(200)
    expectSameBytes(await body(raw), block.bytes, `GET /ipfs/${block.cid}?format=raw`)
  }
}

/**
 * How many generated cases each property tries: `PINFOLD_PROPERTY_RUNS` scales every property's
 * own count (CI keeps the default; a local hunt for a bug raises it).
 */
export const runs = (base: number) => Math.max(1, Math.round(base * Number(process.env.PINFOLD_PROPERTY_RUNS ?? 1)))
