import { appendFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type ListProblem, parseAnyCid } from '@pinfold/core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseDenylistSources, type RunningDenylists, startDenylistSources } from '../src/denylist-sources.js'

const A = 'bafybeihvvulpp4evxj7x7armbqcyg6uezzuig6jp3lktpbovlqfkuqeuoq'
const B = 'QmdWFA9FL52hx3j9EJZPQP1ZUH8Ygi5tLCX2cRDs6knSf8'
const C = 'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku'.replace('hdwd', 'aaaa')
const blockedBy = (running: RunningDenylists, cid: string) => running.lists.checkCid(parseAnyCid(cid))

async function until(check: () => boolean, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('deny-list sources', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'pinfold-deny-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  it('PINFOLD_DENYLISTS - paths and URLs, named by their last segment; two lists of one name are refused', () => {
    expect(parseDenylistSources('/etc/ipfs/a.deny, https://badbits.dwebops.pub/badbits.deny')).toEqual([
      { kind: 'file', name: 'a.deny', location: '/etc/ipfs/a.deny' },
      { kind: 'http', name: 'badbits.deny', location: 'https://badbits.dwebops.pub/badbits.deny' },
    ])
    expect(parseDenylistSources(undefined)).toEqual([])
    expect(() => parseDenylistSources('/a/x.deny,/b/x.deny')).toThrow('two lists are named x.deny')
  })

  it('file - appended lines apply without a restart; a malformed one is reported with its line; a file that cannot be read keeps its last good list', async () => {
    const path = join(dir, 'ops.deny')
    await writeFile(path, `name: ops\n---\n/ipfs/${A}\n`)
    const problems: ListProblem[] = []
    const failures: (string | undefined)[] = []
    const running = await startDenylistSources(parseDenylistSources(path), {
      fileCheckMs: 30,
      onProblem: (problem) => problems.push(problem),
      onFailure: (_, error) => failures.push(error),
    })
    try {
      expect(blockedBy(running, A)).toMatchObject({ list: 'ops.deny', line: 3 })
      expect(blockedBy(running, B)).toBeUndefined()
      await appendFile(path, `/ipfs/not-a-cid\n/ipfs/${B}\n`)
      await until(() => blockedBy(running, B) !== undefined)
      expect(blockedBy(running, B)).toMatchObject({ line: 5 })
      expect(problems).toEqual([{ list: 'ops.deny', line: 4, reason: '"not-a-cid" is not a CID' }])
      await rm(path)
      await until(() => running.lists.failure('ops.deny') !== undefined)
      expect(blockedBy(running, A)).toMatchObject({ line: 3 }) // the last good version stays
      // rewritten shorter: read again whole
      await writeFile(path, `/ipfs/${C}\n`)
      await until(() => blockedBy(running, C) !== undefined)
      expect(blockedBy(running, A)).toBeUndefined()
      expect(running.lists.failure('ops.deny')).toBeUndefined()
      expect(failures.at(-1)).toBeUndefined()
    } finally {
      running.stop()
    }
  })

  describe('HTTP subscription', () => {
    let server: Server
    let url: string
    let body = `/ipfs/${A}\n`
    let down = false
    const seen: { range: string | undefined; ifNoneMatch: string | undefined; status: number }[] = []
    beforeAll(async () => {
      server = createServer((req, res) => {
        const etag = `"${body.length}"`
        const range = req.headers.range
        const answer = (status: number, headers: Record<string, string> = {}, text = '') => {
          seen.push({ range, ifNoneMatch: req.headers['if-none-match'], status })
          res.writeHead(status, { etag, ...headers }).end(text)
        }
        if (down) return answer(503)
        if (req.headers['if-none-match'] === etag) return answer(304)
        const from = range ? Number(/bytes=(\d+)-/.exec(range)![1]) : undefined
        if (from === undefined) return answer(200, {}, body)
        if (from >= body.length) return answer(416)
        return answer(206, { 'content-range': `bytes ${from}-${body.length - 1}/${body.length}` }, body.slice(from))
      })
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
      url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/lists/sub.deny`
    })
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

    it('fetched whole once, then only its new lines (Range), nothing when unchanged (ETag); a failed refresh keeps the last good list', async () => {
      const running = await startDenylistSources(parseDenylistSources(url), {
        refreshMs: 3_600_000, // refreshed by hand below
        onProblem: () => {},
        onFailure: () => {},
      })
      try {
        expect(blockedBy(running, A)).toMatchObject({ list: 'sub.deny', line: 1 })
        await running.refresh()
        expect(seen.at(-1)).toEqual({ range: `bytes=${body.length}-`, ifNoneMatch: `"${body.length}"`, status: 304 })
        const before = body.length
        body += `/ipfs/${B}\n`
        await running.refresh()
        expect(seen.at(-1)).toMatchObject({ range: `bytes=${before}-`, status: 206 })
        expect(blockedBy(running, B)).toMatchObject({ line: 2 })
        down = true
        await running.refresh()
        expect(running.lists.failure('sub.deny')).toMatch('503')
        expect(blockedBy(running, A)).toBeDefined()
        expect(blockedBy(running, B)).toBeDefined()
        down = false
        await running.refresh()
        expect(running.lists.failure('sub.deny')).toBeUndefined()
      } finally {
        running.stop()
      }
    })
  })
})
