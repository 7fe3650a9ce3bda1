/**
 * The package installs on Node 20 (its `engines`), so starting the node is where it says that the
 * node needs Node 22: before anything is built, in words, instead of libp2p's TypeError.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { checkNodeVersion } from '../src/node-version.js'

describe('the Node.js the IPFS node needs', () => {
  it('checkNodeVersion - refuses 20.x naming both versions, accepts 22 and later', () => {
    expect(() => checkNodeVersion('20.19.2')).toThrow(
      /needs Node\.js 22 or later \(libp2p uses Promise\.withResolvers\); this is Node\.js 20\.19\.2/,
    )
    expect(() => checkNodeVersion('21.7.3')).toThrow(/this is Node\.js 21\.7\.3/)
    expect(() => checkNodeVersion('22.0.0')).not.toThrow()
    expect(() => checkNodeVersion('24.11.1')).not.toThrow()
  })

  // CI runs this group on Node 20, the oldest Node.js the project supports
  it.runIf(Number(process.versions.node.split('.')[0]) < 22)(
    'Node.js < 22 - startIpfsNode refuses with that message before it creates anything',
    async () => {
      // libp2p and Helia load only here (seconds), not for the check's own case
      const { startIpfsNode } = await import('../src/node.js')
      const dir = await mkdtemp(join(tmpdir(), 'pinfold-ipfs-old-node-'))
      try {
        await expect(
          startIpfsNode({
            listen: ['/ip4/127.0.0.1/tcp/0'],
            peerKeyFile: join(dir, 'peer-key'),
            publicBlock: async () => undefined,
          }),
        ).rejects.toThrow(
          `needs Node.js 22 or later (libp2p uses Promise.withResolvers); this is Node.js ${process.versions.node}`,
        )
        // not even the peer key file: the refusal comes first
        expect(await readdir(dir)).toEqual([])
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  )
})
