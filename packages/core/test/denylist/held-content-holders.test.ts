import type { Actor } from '@pinfold/interface'
import { base58btc } from 'multiformats/bases/base58'
import { CID } from 'multiformats/cid'
import { sha256 } from 'multiformats/hashes/sha2'
import { describe, expect, it } from 'vitest'
import { Denylists, ListReader } from '../../src/index.js'
import { createTestService, uploadFile, utf8 } from '../support/test-service.js'

/** Two holders a page: five tenants and seven files make four pages, one tenant's files across two. */
const HOLDER_PAGE_SIZE = 2

/**
 * The held-content scan tells every tenant holding a blocked root however many there are: their
 * files are read a page at a time (never all at once), and a tenant whose files straddle a page
 * boundary still gets one entry naming all of them. Shown for both paths a rule takes: a plain CID
 * rule's holder lookup and a double-hashed rule's pass over every held root.
 */
describe('deny lists: the held-content scan pages through a root’s holders', () => {
  it('a plain rule and a double-hashed rule each tell every holder once, with all its files', async () => {
    const lists = new Denylists()
    const { service } = createTestService({ denylists: lists, denylistHolderPageSize: HOLDER_PAGE_SIZE })
    const bytes = utf8('content held by more tenants than one page of holders')
    const tenants: Actor[] = ['t1', 't2', 't3', 't4', 't5'].map((tenantId) => ({ tenantId, userId: 'u' }))
    const held = new Map<string, string[]>()
    for (const actor of tenants) {
      // t2's three files make it the last tenant of two full pages in a row
      const networks = actor.tenantId === 't2' ? (['public', 'private', 'public'] as const) : (['public'] as const)
      for (const network of networks) {
        const { file } = await uploadFile(service, actor, bytes, { network })
        held.set(actor.tenantId, [...(held.get(actor.tenantId) ?? []), file.id])
      }
    }
    const cid = (await service.files.list(tenants[0]!, 'public')).files[0]!.cid

    const stop = await service.heldContent.start({ pauseMs: 0 })
    try {
      await service.heldContent.settled()
      const reader = new ListReader(
        lists.list('held.deny'),
        () => {},
        (rule) => service.heldContent.rulesAdded('held.deny', [rule]),
      )
      // line 1 names the CID (its holders looked up); line 2 is double-hashed (a pass over held roots)
      reader.push(utf8(`/ipfs/${cid}\n`))
      await service.heldContent.settled()
      const text = base58btc.baseEncode(CID.parse(cid).multihash.bytes)
      const digest = await sha256.digest(utf8(text))
      reader.push(utf8(`//${base58btc.baseEncode(digest.bytes)}\n`))
      await service.heldContent.settled()
    } finally {
      await stop()
    }

    expect(service.heldContent.status()).toMatchObject({ rootsBlocked: 1, noticesRecorded: 10 })
    for (const actor of tenants) {
      const { events } = await service.events.list(actor, { types: ['content.blocked'] })
      const told = events.map((e) => ({ line: e.data.line, fileIds: [...(e.data.fileIds as string[])].sort() }))
      const fileIds = [...held.get(actor.tenantId)!].sort()
      expect(told, actor.tenantId).toEqual([
        { line: 2, fileIds },
        { line: 1, fileIds },
      ])
    }
  })
})
