import { readFile } from 'node:fs/promises'
import { createServer, request as httpRequest, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { CarReader } from '@ipld/car/reader'
import * as dagPb from '@ipld/dag-pb'
import { keptAnswersOf } from '@pinfold/http'
import { createNodeHandler } from '@pinfold/http-node'
import { UnixFS } from 'ipfs-unixfs'
import { exporter } from 'ipfs-unixfs-exporter'
import type { CID } from 'multiformats/cid'
import { afterAll, it } from 'vitest'
import { type GatewayTestApi, type HostAnswer, requestOnHost, startGatewayApi } from './gateway.js'
import { form } from './test-api.js'

/**
 * The gateway-conformance suite (github.com/ipfs/gateway-conformance) ported onto Pinfold: its
 * fixtures, copied byte for byte into this package (fixtures/gateway-conformance, SOURCE.txt names
 * the commit), loaded into an in-process Pinfold as public CAR uploads, and a score per Go test
 * function that each ported file prints when it ends.
 */

/** The copy of the suite's `fixtures/` folder in this repository (CI has no other). */
export const CONFORMANCE_FIXTURES = fileURLToPath(new URL('../fixtures/gateway-conformance/', import.meta.url))

/** The bytes of a fixture by its path under the suite's `fixtures/` (e.g. `path_gateway_unixfs/symlink.car`). */
export function conformanceFixture(path: string): Promise<Uint8Array> {
  return readFile(new URL(path, `file://${CONFORMANCE_FIXTURES}`)).then((bytes) => new Uint8Array(bytes))
}

export interface ConformanceGateway extends GatewayTestApi {
  /**
   * Uploads a fixture CAR (`car=true`, public network, tenant "acme") and resolves to its root CID
   * as the upload answered it. Throws with the API's error when the upload is refused.
   */
  loadCar(path: string): Promise<string>
  /** A request for `path` with `host` as its Host (manual redirects), as the suite's `Request().Header("Host", …)`. */
  onHost(host: string, path: string, init?: { method?: string; headers?: Record<string, string> }): Promise<HostAnswer>
  /** A request on the path gateway's own origin (`url`), redirects left as they are. */
  get(path: string, init?: { method?: string; headers?: Record<string, string> }): Promise<HostAnswer>
  /**
   * A real HTTP request with `host` as its Host header to this instance behind the node bridge,
   * trusting one reverse proxy (`PINFOLD_TRUST_PROXY=1`): where `X-Forwarded-Host` and
   * `X-Forwarded-Proto` are believed, as in a deployment behind nginx.
   */
  behindProxy(host: string, path: string, headers?: Record<string, string>): Promise<HostAnswer>
}

/** The suite's subdomain gateway host in these ports (its `SubdomainGatewayHost`, here without a port). */
export const CONFORMANCE_SUBDOMAIN_HOST = 'example.com'

/**
 * An in-process Pinfold set up as the suite's gateway under test: the API and its path gateway on
 * `url` (its public URL), the subdomain gateway on `example.com` (the host the suite's subdomain
 * tests use; path requests there redirect to subdomains), fixtures uploaded through the public API
 * as a client would.
 */
export async function startConformanceGateway(
  options: Parameters<typeof startGatewayApi>[0] = {},
): Promise<ConformanceGateway> {
  const server = await startGatewayApi({ publicHost: true, subdomainHost: CONFORMANCE_SUBDOMAIN_HOST, ...options })
  const origin = new URL(server.url).host
  let proxied: Promise<Server> | undefined
  const listening = () => {
    proxied ??= new Promise((resolve) => {
      const http = createServer(
        // with the answer cache, as `pinfold serve` runs: the suites meet kept answers too
        createNodeHandler(server.handler, { trustProxy: 1, keptAnswers: keptAnswersOf(server.handler) }),
      )
      http.listen(0, '127.0.0.1', () => resolve(http))
    })
    return proxied
  }
  return {
    ...server,
    async close() {
      if (proxied) {
        const http = await proxied
        await new Promise((resolve) => http.close(resolve))
      }
      await server.close()
    },
    async behindProxy(host, path, headers = {}) {
      const { port } = (await listening()).address() as AddressInfo
      return new Promise<HostAnswer>((resolve, reject) => {
        const req = httpRequest({ port, host: '127.0.0.1', path, headers: { ...headers, host } }, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (chunk: Buffer) => chunks.push(chunk))
          res.on('error', reject)
          res.on('end', () => {
            const answerHeaders: Record<string, string | undefined> = {}
            for (const [name, value] of Object.entries(res.headers)) {
              answerHeaders[name] = Array.isArray(value) ? value.join(', ') : value
            }
            resolve({
              status: res.statusCode ?? 0,
              body: Buffer.concat(chunks).toString('latin1'),
              headers: answerHeaders,
            })
          })
        })
        req.on('error', reject)
        req.end()
      })
    },
    async loadCar(path) {
      const bytes = await conformanceFixture(path)
      const res = await server.api('/v3/files', {
        method: 'POST',
        body: form(
          { network: 'public', car: 'true', name: path },
          { bytes, name: 'fixture.car', type: 'application/vnd.ipld.car' },
        ),
      })
      const json = (await res.json()) as { data?: { cid: string }; error?: string }
      if (res.status !== 200 || !json.data) throw new Error(`fixture ${path} refused: ${res.status} ${json.error}`)
      return json.data.cid
    },
    onHost: (host, path, init) => requestOnHost(server, host, path, init),
    get: (path, init) => requestOnHost(server, origin, path, init),
  }
}

type Outcome = 'passed' | 'failed' | 'differs'

export interface ConformanceScore {
  /**
   * One sub-test of Go test function `goTest`, as a vitest test named `name` inside
   * the file's `describe(goTest)`; counted as passed when its assertions hold.
   */
  it(goTest: string, name: string, body: () => Promise<void> | void): void
  /**
   * A sub-test where Pinfold deliberately answers otherwise than the suite (Kubo's choice):
   * `body` asserts what Pinfold does instead, `reason` says why. Counted in the total, never as passed.
   */
  differs(goTest: string, name: string, reason: string, body: () => Promise<void> | void): void
}

/**
 * The score recorder of one ported Go file (`path_gateway_unixfs_test.go` → its stem): registers
 * an `afterAll` that prints `{GoTestFunctionName}: passed/total` per function (and the sub-tests
 * Pinfold answers otherwise, with the reason), so a run of the conformance files shows the score.
 */
export function conformanceScore(goFile: string): ConformanceScore {
  const results = new Map<string, { name: string; outcome: Outcome; reason?: string }[]>()
  const record = (goTest: string, name: string, outcome: Outcome, reason?: string) => {
    const list = results.get(goTest) ?? []
    const at = list.findIndex((r) => r.name === name)
    if (at >= 0) list[at] = { name, outcome, reason }
    else list.push({ name, outcome, reason })
    results.set(goTest, list)
  }
  afterAll(() => {
    const lines = [`gateway-conformance ${goFile}:`]
    for (const [goTest, list] of results) {
      const passed = list.filter((r) => r.outcome === 'passed').length
      lines.push(`  ${goTest}: ${passed}/${list.length}`)
      for (const r of list.filter((r) => r.outcome !== 'passed')) {
        lines.push(`    ${r.outcome === 'failed' ? 'FAILED' : 'differs'}: ${r.name}${r.reason ? ` (${r.reason})` : ''}`)
      }
    }
    console.log(lines.join('\n'))
  })
  const run = (goTest: string, name: string, body: () => Promise<void> | void, onPass: Outcome, reason?: string) =>
    it(name, async () => {
      try {
        await body()
      } catch (error) {
        record(goTest, name, 'failed', reason)
        throw error
      }
      record(goTest, name, onPass, reason)
    })
  return {
    it: (goTest, name, body) => run(goTest, name, body, 'passed'),
    differs: (goTest, name, reason, body) => run(goTest, name, body, 'differs', reason),
  }
}

/** A fixture CAR read as the suite's `car.MustOpenUnixfsCar` does: CIDs and blocks by UnixFS path. */
export interface FixtureCar {
  root: CID
  /** The CID at `names` below the root (`MustGetCid(names…)`); the root without names. */
  cid(...names: string[]): Promise<CID>
  /** The block of the node at `names` (`MustGetRawData(names…)`). */
  rawData(...names: string[]): Promise<Uint8Array>
  /** A block by CID. */
  block(cid: CID): Uint8Array
  /** Every block below the node at `names`, depth-first in link order, itself excluded (`MustGetDescendantsCids`). */
  descendants(...names: string[]): Promise<CID[]>
  /** The HAMT shard nodes below the root, depth-first (`MustGetCidsInHAMT`). */
  hamtShards(): CID[]
  /** The shard nodes below the root on the way to `name` in the root's HAMT (`MustGetCIDsInHAMTTraversal`). */
  hamtPath(name: string): CID[]
}

/** Opens a fixture CAR; paths are walked by the UnixFS exporter over the CAR's blocks alone. */
export async function openFixtureCar(path: string): Promise<FixtureCar> {
  const reader = await CarReader.fromBytes(await conformanceFixture(path))
  const [root] = await reader.getRoots()
  if (!root) throw new Error(`fixture ${path} has no root`)
  const blocks = new Map<string, Uint8Array>()
  for await (const { cid, bytes } of reader.blocks()) blocks.set(cid.toString(), bytes)
  const block = (cid: CID) => {
    const bytes = blocks.get(cid.toString())
    if (!bytes) throw new Error(`block ${cid} is not in ${path}`)
    return bytes
  }
  const store = {
    async *get(cid: CID) {
      yield block(cid)
    },
  }
  const cid = async (...names: string[]) =>
    names.length === 0 ? root : (await exporter(`${root}/${names.join('/')}`, store)).cid
  /** A dag-pb node's links; a raw block (or another codec) has none here. */
  const links = (node: CID) => (node.code === dagPb.code ? dagPb.decode(block(node)).Links : [])
  const isShard = (node: CID) => {
    if (node.code !== dagPb.code) return false
    const data = dagPb.decode(block(node)).Data
    return data !== undefined && UnixFS.unmarshal(data).type === 'hamt-sharded-directory'
  }
  const below = (node: CID, into: CID[]) => {
    for (const link of links(node)) {
      into.push(link.Hash)
      below(link.Hash, into)
    }
    return into
  }
  const shardsBelow = (node: CID, into: CID[]) => {
    for (const link of links(node)) {
      if (!isShard(link.Hash)) continue
      into.push(link.Hash)
      shardsBelow(link.Hash, into)
    }
    return into
  }
  // a HAMT link is named `{2 hex digits}{entry name}`, or the 2 hex digits alone for a sub-shard
  const hamtPath = (name: string) => {
    const path: CID[] = []
    let node = root
    for (;;) {
      const entry = links(node).find((link) => link.Name?.length !== 2 && link.Name?.slice(2) === name)
      if (entry) return path
      const next = links(node).find((link) => link.Name?.length === 2 && isShard(link.Hash) && reaches(link.Hash, name))
      if (!next) throw new Error(`${name} is not in the HAMT of ${path}`)
      path.push(next.Hash)
      node = next.Hash
    }
  }
  const reaches = (shard: CID, name: string): boolean =>
    links(shard).some((link) =>
      link.Name?.length === 2 ? isShard(link.Hash) && reaches(link.Hash, name) : link.Name?.slice(2) === name,
    )
  return {
    root,
    cid,
    rawData: async (...names) => block(await cid(...names)),
    block,
    descendants: async (...names) => below(await cid(...names), []),
    hamtShards: () => shardsBelow(root, []),
    hamtPath,
  }
}
