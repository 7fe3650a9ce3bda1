import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { computeFileCid, mintToken, SCOPES } from '@pinfold/core'
import { figures, printFigures } from '@pinfold/testing/reliability'
import { countFiles } from '@pinfold/testing/storage'
import { form, TEST_SECRET } from '@pinfold/testing/test-api'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChildServer, exited, startChildServer } from '../support/child-server.js'

/**
 * Three `pinfold serve` processes sharing one PostgreSQL schema and one blob directory take
 * PINFOLD_LOAD_UPLOADS (default 300; the figure is 1,000) concurrent uploads, a third of
 * them duplicates, with deletes interleaved; then a full audit: every acknowledged file is readable
 * with the right CID and bytes from every process, deleted ones are gone, duplicates agree, and the
 * blob directory holds exactly one blob per content record (no orphans, no temp files).
 * Registered only with a PostgreSQL server (`TEST_DATABASE_URL`, as CI sets it). A payment nonce
 * accepted exactly once across processes is proven by `payments-postgres.test.ts`.
 */

const DATABASE = process.env.TEST_DATABASE_URL
const UPLOADS = Number(process.env.PINFOLD_LOAD_UPLOADS ?? 300)
const PROCESSES = 3

describe.runIf(DATABASE)('load across processes', () => {
  let schema: string
  let dataDir: string
  let children: ChildServer[] = []
  let token: string
  let admin: pg.Client

  beforeAll(async () => {
    schema = `load_${Math.random().toString(36).slice(2, 10)}`
    admin = new pg.Client({ connectionString: DATABASE })
    await admin.connect()
    await admin.query(`create schema ${schema}`)
    const url = new URL(DATABASE!)
    url.searchParams.set('options', `-c search_path=${schema}`)
    // one data directory for all: with DATABASE_URL it holds only the shared blobs (no lock, no PGlite)
    dataDir = await mkdtemp(join(tmpdir(), 'pinfold-load-'))
    const env = {
      DATABASE_URL: url.toString(),
      PINFOLD_DATA_DIR: dataDir,
      PINFOLD_AUTH_SECRET: TEST_SECRET,
      PINFOLD_STORAGE: 'embedded',
    }
    // started together: migrations take turns across processes
    children = await Promise.all(Array.from({ length: PROCESSES }, () => startChildServer(env)))
    token = await mintToken(TEST_SECRET, { sub: 'loader', org: 'acme', scopes: SCOPES, expiresIn: '1h' })
  }, 120_000)

  afterAll(async () => {
    printFigures('load')
    for (const { child } of children) child.kill('SIGTERM')
    await Promise.all(children.map(({ child }) => exited(child)))
    await admin?.query(`drop schema if exists ${schema} cascade`)
    await admin?.end()
    if (dataDir) await rm(dataDir, { recursive: true, force: true })
  })

  let resets = 0
  /**
   * A request to process `i % 3`. A connection the server closed as idle just as the client reused
   * it (the keep-alive race; the request never reached a handler) is retried once on a new one.
   */
  const call = async (i: number, path: string, init: RequestInit = {}): Promise<Response> => {
    const send = () =>
      fetch(`${children[i % PROCESSES]!.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) },
      })
    try {
      return await send()
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code
      if (code !== 'UND_ERR_SOCKET' && code !== 'ECONNRESET') throw error
      resets++
      return send()
    }
  }

  it(`uploads - ${UPLOADS} concurrent uploads with duplicates and deletes over ${PROCESSES} processes lose nothing`, async () => {
    // a third of the uploads repeat a content another upload also sends
    const distinct = Math.max(1, Math.ceil((UPLOADS * 2) / 3))
    const contents = Array.from({ length: distinct }, (_, i) =>
      i % 10 === 0 ? randomBytes(300_000) : Buffer.from(`load file ${i} ${randomBytes(8).toString('hex')}`),
    )
    type Ack = { id: string; cid: string; content: number; deleted: boolean }
    const acks: Ack[] = []
    let fiveHundreds = 0

    await Promise.all(
      Array.from({ length: UPLOADS }, async (_, i) => {
        const content = i < distinct ? i : (i * 7) % distinct
        figures.inputs++
        const res = await call(i, '/v3/files', {
          method: 'POST',
          body: form({ network: 'public', name: `f${i}` }, { bytes: contents[content]!, name: `f${i}.bin` }),
        })
        const body = (await res.json()) as { data: { id: string; cid: string } }
        if (res.status >= 500) fiveHundreds++
        expect(res.status, JSON.stringify(body)).toBe(200)
        const ack: Ack = { id: body.data.id, cid: body.data.cid, content, deleted: false }
        acks.push(ack)
        // every fifth acknowledged upload is deleted right away, through another process
        if (i % 5 === 0) {
          figures.inputs++
          const del = await call(i + 1, `/v3/files/public/${ack.id}`, { method: 'DELETE' })
          if (del.status >= 500) fiveHundreds++
          expect(del.status).toBe(200)
          ack.deleted = true
        }
      }),
    )
    figures.fiveHundreds += fiveHundreds
    expect(fiveHundreds).toBe(0)
    expect(acks).toHaveLength(UPLOADS)

    // duplicates agree, and the CID is the one the bytes produce
    const expected = new Map<number, string>()
    for (const ack of acks) {
      const cid = expected.get(ack.content) ?? ack.cid
      expected.set(ack.content, cid)
      expect(ack.cid).toBe(cid)
    }
    for (const [content, cid] of [...expected].slice(0, 20)) {
      const computed = await computeFileCid(
        (async function* () {
          yield contents[content]!
        })(),
        'v1',
      )
      expect(computed.toString()).toBe(cid)
    }

    // every acknowledged file, from every process: present with its CID, or gone once deleted
    let lost = 0
    for (const [n, ack] of acks.entries()) {
      const res = await call(n, `/v3/files/public/${ack.id}`)
      const body = (await res.json()) as { data?: { cid: string } }
      if (ack.deleted) expect(res.status).toBe(404)
      else if (res.status !== 200 || body.data?.cid !== ack.cid) lost++
    }
    // the bytes of every content still held, through the gateway of each process
    const held = new Set(acks.filter((a) => !a.deleted).map((a) => a.content))
    for (const content of held) {
      for (let p = 0; p < PROCESSES; p++) {
        const res = await fetch(`${children[p]!.url}/ipfs/${expected.get(content)}`)
        const bytes = Buffer.from(await res.arrayBuffer())
        if (res.status !== 200 || !bytes.equals(contents[content]!)) lost++
      }
    }
    figures.filesLost += lost
    expect(lost).toBe(0)

    // no orphans: one blob per content record, every content record referenced, no temp file
    const { rows } = await admin.query(`select count(*)::int as n from ${schema}.contents`)
    const unreferenced = await admin.query(
      `select count(*)::int as n from ${schema}.contents c where not exists (select 1 from ${schema}.files f where f.cid = c.cid)`,
    )
    expect(countFiles(join(dataDir, 'blobs', 'blobs'))).toBe(rows[0].n)
    expect(unreferenced.rows[0].n).toBe(0)
    expect(rows[0].n).toBeGreaterThanOrEqual(held.size)
    if (resets === 0) expect(rows[0].n).toBe(held.size)
    expect(countFiles(join(dataDir, 'blobs', '.tmp'))).toBe(0)
    console.log(
      `[reliability] load: ${UPLOADS} uploads over ${PROCESSES} processes, ${resets} keep-alive resets retried`,
    )
  }, 300_000)
})
