import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createGatewayFetcher } from '../src/index.js'

/** A trustless gateway on loopback serving raw blocks from a map, recording what it was asked. */
async function startGateway(blocks: Map<string, Uint8Array>, options: { hang?: boolean } = {}) {
  const requests: { url: string; accept: string | undefined }[] = []
  const server: Server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', accept: req.headers.accept })
    if (options.hang) return // never answers: only an abort ends the request
    const match = /^\/ipfs\/([^/?]+)\?format=raw$/.exec(req.url ?? '')
    const bytes = match && blocks.get(match[1]!)
    if (!bytes) {
      res.writeHead(404).end('not found')
      return
    }
    res.writeHead(200, { 'content-type': 'application/vnd.ipld.raw' }).end(bytes)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

async function rawBlock(text: string) {
  const bytes = new TextEncoder().encode(text)
  return { cid: CID.createV1(0x55, await sha256.digest(bytes)).toString(), bytes }
}

describe('createGatewayFetcher', () => {
  const blocks = new Map<string, Uint8Array>()
  let hello: { cid: string; bytes: Uint8Array }
  let gateway: Awaited<ReturnType<typeof startGateway>>
  let empty: Awaited<ReturnType<typeof startGateway>>

  beforeAll(async () => {
    hello = await rawBlock('hello trustless gateway')
    blocks.set(hello.cid, hello.bytes)
    gateway = await startGateway(blocks)
    empty = await startGateway(new Map())
  })
  afterAll(async () => {
    await gateway?.close()
    await empty?.close()
  })

  it('fetches a block as ?format=raw with the raw Accept header', async () => {
    const fetcher = createGatewayFetcher({ gateways: [gateway.url] })
    expect(fetcher.name).toBe('gateways')
    expect(Buffer.from(await fetcher.getBlock(hello.cid, {})).toString()).toBe('hello trustless gateway')
    expect(gateway.requests.at(-1)).toEqual({
      url: `/ipfs/${hello.cid}?format=raw`,
      accept: 'application/vnd.ipld.raw',
    })
  })

  it('asks the next gateway when one does not have the block', async () => {
    const fetcher = createGatewayFetcher({ gateways: [empty.url, gateway.url] })
    const before = empty.requests.length
    expect(Buffer.from(await fetcher.getBlock(hello.cid, {})).equals(Buffer.from(hello.bytes))).toBe(true)
    expect(empty.requests.length).toBe(before + 1)
  })

  it('NOT_FOUND, naming each gateway’s answer, when no gateway has it', async () => {
    const missing = await rawBlock('nobody has this')
    const fetcher = createGatewayFetcher({ gateways: [empty.url, 'http://127.0.0.1:9'] })
    const error = await fetcher.getBlock(missing.cid, {}).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'NOT_FOUND' })
    expect((error as Error).message).toContain('404')
    expect((error as Error).message).toContain('fetch failed')
  })

  it('ABORTED when the signal fires mid-request', async () => {
    const stuck = await startGateway(blocks, { hang: true })
    try {
      const fetcher = createGatewayFetcher({ gateways: [stuck.url] })
      const controller = new AbortController()
      const pending = fetcher.getBlock(hello.cid, { signal: controller.signal })
      while (stuck.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 10))
      controller.abort()
      await expect(pending).rejects.toMatchObject({ code: 'ABORTED' })
    } finally {
      await stuck.close()
    }
  })

  it('a gateway answering with an endless body is cut off at the 2 MiB block limit: NOT_FOUND, not buffered', async () => {
    let sent = 0
    const chunk = new Uint8Array(64 * 1024).fill(7)
    const endless = createServer((_req, res) => {
      // no Content-Length: only counting what is read can stop it
      res.writeHead(200, { 'content-type': 'application/vnd.ipld.raw' })
      const pump = () => {
        while (!res.destroyed && sent < 1024 ** 3) {
          sent += chunk.length
          if (!res.write(chunk)) return void res.once('drain', pump)
        }
      }
      res.on('close', () => res.removeAllListeners('drain'))
      pump()
    })
    await new Promise<void>((resolve) => endless.listen(0, '127.0.0.1', resolve))
    try {
      const fetcher = createGatewayFetcher({
        gateways: [`http://127.0.0.1:${(endless.address() as AddressInfo).port}`],
      })
      const error = await fetcher.getBlock(hello.cid, {}).catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'NOT_FOUND' })
      expect((error as Error).message).toContain('greater than the limit (2097152)')
      // what the socket buffers held besides: far from the gigabyte the server was ready to send
      expect(sent).toBeLessThan(64 * 1024 ** 2)
    } finally {
      endless.closeAllConnections()
      await new Promise<void>((resolve) => endless.close(() => resolve()))
    }
  })

  it('refuses an empty list or a URL that is not http(s) at construction', () => {
    expect(() => createGatewayFetcher({ gateways: [] })).toThrow(/gateways` must list at least one URL/)
    expect(() => createGatewayFetcher({ gateways: ['ftp://example.com'] })).toThrow(
      /gateways\[0\]` must be an absolute http/,
    )
  })
})
