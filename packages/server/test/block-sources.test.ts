import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { lazyModule } from '@pinfold/core'
import { describe, expect, it } from 'vitest'
import { blockSources } from '../src/block-sources.js'

const RAW_CID = 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e' // sha256 of "hello world"

describe('blockSources', () => {
  it('imports the gateway fetcher on the first block asked, and fetches through it', async () => {
    const server = createServer((request, response) => {
      // a trustless gateway answering the one raw block it holds
      if (request.url?.startsWith(`/ipfs/${RAW_CID}`)) return response.end('hello world')
      response.statusCode = 404
      response.end()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`
      let imports = 0
      const load = lazyModule('fetching blocks from IPFS gateways', async () => {
        imports++
        return import('@pinfold/block-fetchers')
      })
      const [source] = blockSources({ pinning: { gateways: [url] } } as never, load)
      expect(source!.name).toBe(`gateway ${new URL(url).host}`)
      expect(imports).toBe(0)
      const block = await source!.getBlock(RAW_CID, {})
      expect(new TextDecoder().decode(block)).toBe('hello world')
      await source!.getBlock(RAW_CID, {})
      expect(imports).toBe(1)
    } finally {
      server.close()
    }
  })

  it('answers UNAVAILABLE for a block when the fetcher cannot be imported, and tries again on the next', async () => {
    let attempts = 0
    const failing = lazyModule('fetching blocks from IPFS gateways', async () => {
      attempts++
      throw new Error("Cannot find package '@helia/block-brokers'")
    })
    const [source] = blockSources({ pinning: { gateways: ['https://gateway.example/'] } } as never, failing)
    for (let attempt = 1; attempt <= 2; attempt++) {
      await expect(source!.getBlock(RAW_CID, {})).rejects.toMatchObject({
        code: 'UNAVAILABLE',
        message:
          'fetching blocks from IPFS gateways: unavailable on this server, a module it needs could not be loaded',
      })
      expect(attempts).toBe(attempt)
    }
  })
})
