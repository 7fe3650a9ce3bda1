/**
 * The embedded IPFS node's settings (`PINFOLD_IPFS_*`) as `readConfig` reads them, and what a server
 * does with them before any peer connects: nothing at all without `PINFOLD_IPFS_LISTEN` (libp2p is
 * never loaded), a clear refusal on a Node.js too old for libp2p. The node itself is tested with real
 * peers in interop/bitswap.test.ts and packages/ipfs-network/test.
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { TEST_SECRET } from '@pinfold/testing/test-api'
import { describe, expect, it } from 'vitest'
import { readConfig } from '../src/index.js'
import { startChildServer } from './support/child-server.js'

describe('ipfs node - configuration', () => {
  it('readConfig - no PINFOLD_IPFS_LISTEN, no node', () => {
    expect(readConfig({}).ipfs).toBeUndefined()
  })

  it('readConfig - comma-separated multiaddrs, the DHT off by default, bootstrap unset means Amino', () => {
    const { ipfs } = readConfig({
      PINFOLD_IPFS_LISTEN: '/ip4/0.0.0.0/tcp/4001, /ip4/0.0.0.0/tcp/4002/ws',
      PINFOLD_IPFS_ANNOUNCE: '/dns4/files.example.com/tcp/4001',
    })
    expect(ipfs).toEqual({
      listen: ['/ip4/0.0.0.0/tcp/4001', '/ip4/0.0.0.0/tcp/4002/ws'],
      announce: ['/dns4/files.example.com/tcp/4001'],
      peerKey: undefined,
      dht: 'off',
      bootstrap: undefined,
      privateAddresses: false,
      reprovideIntervalMs: undefined,
      provideConcurrency: undefined,
    })
  })

  it('readConfig - the DHT settings', () => {
    const { ipfs } = readConfig({
      PINFOLD_IPFS_LISTEN: '/ip4/127.0.0.1/tcp/4001',
      PINFOLD_IPFS_DHT: 'server',
      PINFOLD_IPFS_BOOTSTRAP: '/ip4/10.0.0.2/tcp/4001/p2p/12D3KooWQovR3UgiPjaf3rFmfNz4PMars3T1PfHyZoMnbE2dseXq',
      PINFOLD_IPFS_PRIVATE_ADDRESSES: 'true',
      PINFOLD_IPFS_REPROVIDE_INTERVAL_MS: '3600000',
      PINFOLD_IPFS_PROVIDE_CONCURRENCY: '4',
    })
    expect(ipfs).toMatchObject({
      dht: 'server',
      bootstrap: ['/ip4/10.0.0.2/tcp/4001/p2p/12D3KooWQovR3UgiPjaf3rFmfNz4PMars3T1PfHyZoMnbE2dseXq'],
      privateAddresses: true,
      reprovideIntervalMs: 3_600_000,
      provideConcurrency: 4,
    })
  })

  it.each([
    [
      { PINFOLD_IPFS_LISTEN: '/ip4/0.0.0.0/tcp/4001', PINFOLD_IPFS_DHT: 'yes' },
      /PINFOLD_IPFS_DHT.*"off", "client" or "server"/,
    ],
    [{ PINFOLD_IPFS_DHT: 'client' }, /PINFOLD_IPFS_DHT.*needs PINFOLD_IPFS_LISTEN/],
    [{ PINFOLD_IPFS_LISTEN: '0.0.0.0:4001' }, /"0\.0\.0\.0:4001" is not a multiaddr/],
    [{ PINFOLD_IPFS_LISTEN: '/ip4/0.0.0.0/tcp/4001', PINFOLD_IPFS_PROVIDE_CONCURRENCY: '0' }, /PROVIDE_CONCURRENCY/],
  ])('readConfig - refuses %j', (env, message) => {
    expect(() => readConfig(env)).toThrow(message)
  })

  it('lazy - nothing in the server imports @pinfold/ipfs-network but one import() behind the setting', async () => {
    const src = fileURLToPath(new URL('../src/', import.meta.url))
    const mentions: string[] = []
    const entries = await readdir(src, { recursive: true, withFileTypes: true })
    for (const name of entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name).slice(src.length))) {
      const text = await readFile(join(src, name), 'utf8')
      for (const line of text.split('\n'))
        if (line.includes("'@pinfold/ipfs-network'")) mentions.push(`${name}: ${line.trim()}`)
    }
    expect(mentions).toEqual([
      "ipfs-node.ts: const network = await import('@pinfold/ipfs-network').catch((error: NodeJS.ErrnoException) => {",
    ])
  })

  // This process is the Node 20 the project supports; libp2p needs 22.
  it.runIf(Number(process.versions.node.split('.')[0]) < 22)(
    'Node.js < 22 - `pinfold serve` with PINFOLD_IPFS_LISTEN exits saying it needs Node 22',
    async () => {
      const dataDir = await mkdtemp(join(tmpdir(), 'pinfold-ipfs-old-node-'))
      try {
        const started = startChildServer({
          PINFOLD_STORAGE: 'memory',
          PINFOLD_DATA_DIR: dataDir,
          PINFOLD_AUTH_SECRET: TEST_SECRET,
          PINFOLD_IPFS_LISTEN: '/ip4/127.0.0.1/tcp/0',
        })
        await expect(started).rejects.toMatchObject({
          code: 1,
          stderr: expect.stringMatching(/PINFOLD_IPFS_LISTEN needs Node\.js 22 or later/),
        })
      } finally {
        await rm(dataDir, { recursive: true, force: true })
      }
    },
  )
})
