import { randomUUID } from 'node:crypto'
import type { NewFile, PaymentInstructionRecord, PaymentTerms, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import { at, fileBuilder, newCid, OTHER_TENANT, TENANT } from './fixtures.js'
import { freshHarnessPerTest } from './fresh-harness-per-test.js'
import type { RecordStoreHarness } from './record-store.js'

const newFile = fileBuilder({ network: 'private', size: 10 })

/** Far enough ahead that no store forgets the claim during the test. */
const FUTURE = new Date(Date.UTC(2999, 0, 1))

const TERMS: PaymentTerms = {
  asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
  payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C',
  network: 'base-sepolia',
  amount: '100',
}

function newInstruction(fields: Partial<PaymentInstructionRecord> = {}): PaymentInstructionRecord {
  return {
    id: randomUUID(),
    tenantId: TENANT,
    version: 1,
    paymentRequirements: [{ ...TERMS }],
    name: 'premium',
    description: null,
    createdAt: at(0),
    ...fields,
  }
}

/** The PaymentRecordStore contract: instructions, attached CIDs, and the atomic nonce claim. */
export function describePaymentRecords(name: string, create: () => Promise<RecordStoreHarness>): void {
  describe(`PaymentRecordStore conformance: ${name}`, () => {
    let store: RecordStore
    freshHarnessPerTest(create, (next) => {
      store = next.store
    })

    async function addFile(fields: Partial<NewFile> = {}) {
      const file = newFile(fields)
      const content = { cid: file.cid, blobKey: `blobs/${randomUUID()}`, size: file.size, kind: 'file', profile: 'v1' }
      return (await store.files.createFile(file, content as Parameters<RecordStore['files']['createFile']>[1])).file
    }

    const listAll = (
      filter: Parameters<RecordStore['payments']['listPaymentInstructions']>[1] = {},
      tenantId = TENANT,
    ) => store.payments.listPaymentInstructions(tenantId, filter, { limit: 1000, order: 'ASC' })

    describe('payment instructions', () => {
      it('createPaymentInstruction - stores the record as given; getPaymentInstruction returns it', async () => {
        const instruction = newInstruction({
          description: 'pay me',
          paymentRequirements: [
            { ...TERMS, description: 'one' },
            { ...TERMS, network: 'base', amount: '10000' },
          ],
        })
        expect(await store.payments.createPaymentInstruction(instruction)).toEqual(instruction)
        expect(await store.payments.getPaymentInstruction(TENANT, instruction.id)).toEqual(instruction)
      })

      it('createPaymentInstruction - reusing an id is a CONFLICT', async () => {
        const instruction = await store.payments.createPaymentInstruction(newInstruction())
        await expect(
          store.payments.createPaymentInstruction(newInstruction({ id: instruction.id })),
        ).rejects.toMatchObject({
          code: 'CONFLICT',
        })
      })

      it('getPaymentInstruction - another tenant, an unknown id and a non-UUID are all absent', async () => {
        const instruction = await store.payments.createPaymentInstruction(newInstruction())
        expect(await store.payments.getPaymentInstruction(OTHER_TENANT, instruction.id)).toBeUndefined()
        expect(await store.payments.getPaymentInstruction(TENANT, randomUUID())).toBeUndefined()
        expect(await store.payments.getPaymentInstruction(TENANT, 'not-a-uuid')).toBeUndefined()
      })

      it('listPaymentInstructions - keyset pages in (createdAt, id) order, tenant-scoped', async () => {
        const made: PaymentInstructionRecord[] = []
        for (let i = 0; i < 5; i++)
          made.push(await store.payments.createPaymentInstruction(newInstruction({ createdAt: at(i % 3) })))
        await store.payments.createPaymentInstruction(newInstruction({ tenantId: OTHER_TENANT }))
        const expected = [...made]
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : 1))
          .map((i) => i.id)
        const seen: string[] = []
        let after: { createdAt: Date; id: string } | undefined
        for (;;) {
          const page = await store.payments.listPaymentInstructions(TENANT, {}, { limit: 2, order: 'ASC', after })
          seen.push(...page.items.map((i) => i.id))
          const last = page.items.at(-1)
          if (!page.hasMore || !last) break
          after = { createdAt: last.createdAt, id: last.id }
        }
        expect(seen).toEqual(expected)
        const desc = await store.payments.listPaymentInstructions(TENANT, {}, { limit: 1000, order: 'DESC' })
        expect(desc.items.map((i) => i.id)).toEqual([...expected].reverse())
      })

      it('listPaymentInstructions - filters by id, name prefix and attached CID', async () => {
        const file = await addFile()
        const a = await store.payments.createPaymentInstruction(newInstruction({ name: 'alpha_%' }))
        const b = await store.payments.createPaymentInstruction(newInstruction({ name: 'beta' }))
        await store.payments.attachPaymentCid(TENANT, b.id, file.cid, at(5))
        expect((await listAll({ id: a.id })).items.map((i) => i.id)).toEqual([a.id])
        expect((await listAll({ id: 'not-a-uuid' })).items).toEqual([])
        expect((await listAll({ namePrefix: 'alpha_%' })).items.map((i) => i.id)).toEqual([a.id])
        expect((await listAll({ namePrefix: 'alpha__' })).items).toEqual([])
        expect((await listAll({ cid: file.cid })).items.map((i) => i.id)).toEqual([b.id])
        expect((await listAll({ cid: file.cid }, OTHER_TENANT)).items).toEqual([])
        expect((await listAll({ cid: file.cid, namePrefix: 'alpha' })).items).toEqual([])
      })

      it('updatePaymentInstruction - applies the patch and adds 1 to version; other tenants get undefined', async () => {
        const instruction = await store.payments.createPaymentInstruction(newInstruction({ description: 'old' }))
        const terms = [{ ...TERMS, amount: '250' }]
        const updated = await store.payments.updatePaymentInstruction(TENANT, instruction.id, {
          name: 'renamed',
          description: null,
          paymentRequirements: terms,
        })
        expect(updated).toEqual({
          ...instruction,
          name: 'renamed',
          description: null,
          paymentRequirements: terms,
          version: 2,
        })
        expect(await store.payments.getPaymentInstruction(TENANT, instruction.id)).toEqual(updated)
        expect(
          await store.payments.updatePaymentInstruction(OTHER_TENANT, instruction.id, { name: 'x' }),
        ).toBeUndefined()
        expect((await store.payments.getPaymentInstruction(TENANT, instruction.id))?.name).toBe('renamed')
      })

      it('updatePaymentInstruction - concurrent updates each get their own version', async () => {
        const instruction = await store.payments.createPaymentInstruction(newInstruction())
        const results = await Promise.all(
          Array.from({ length: 5 }, (_, i) =>
            store.payments.updatePaymentInstruction(TENANT, instruction.id, { name: `n${i}` }),
          ),
        )
        expect(results.map((r) => r?.version).sort()).toEqual([2, 3, 4, 5, 6])
        expect((await store.payments.getPaymentInstruction(TENANT, instruction.id))?.version).toBe(6)
      })

      it('deletePaymentInstruction - deletes; false when absent or another tenant', async () => {
        const instruction = await store.payments.createPaymentInstruction(newInstruction())
        expect(await store.payments.deletePaymentInstruction(OTHER_TENANT, instruction.id)).toBe(false)
        expect(await store.payments.deletePaymentInstruction(TENANT, instruction.id)).toBe(true)
        expect(await store.payments.getPaymentInstruction(TENANT, instruction.id)).toBeUndefined()
        expect(await store.payments.deletePaymentInstruction(TENANT, instruction.id)).toBe(false)
        expect(await store.payments.deletePaymentInstruction(TENANT, 'not-a-uuid')).toBe(false)
      })

      it('deletePaymentInstruction - CONFLICT while a CID is attached, and nothing is deleted', async () => {
        const file = await addFile()
        const instruction = await store.payments.createPaymentInstruction(newInstruction())
        await store.payments.attachPaymentCid(TENANT, instruction.id, file.cid, at(1))
        await expect(store.payments.deletePaymentInstruction(TENANT, instruction.id)).rejects.toMatchObject({
          code: 'CONFLICT',
        })
        expect(await store.payments.getPaymentInstruction(TENANT, instruction.id)).toEqual(instruction)
        expect(await store.payments.detachPaymentCid(TENANT, instruction.id, file.cid)).toBe(true)
        expect(await store.payments.deletePaymentInstruction(TENANT, instruction.id)).toBe(true)
      })

      it('deletePaymentInstruction - racing an attach: either the attach lands and the delete refuses, or the attach fails', async () => {
        for (let round = 0; round < 5; round++) {
          const file = await addFile()
          const instruction = await store.payments.createPaymentInstruction(newInstruction())
          const [attached, deleted] = await Promise.allSettled([
            store.payments.attachPaymentCid(TENANT, instruction.id, file.cid, at(1)),
            store.payments.deletePaymentInstruction(TENANT, instruction.id),
          ])
          const exists = (await store.payments.getPaymentInstruction(TENANT, instruction.id)) !== undefined
          if (attached.status === 'fulfilled') {
            expect(deleted).toMatchObject({ status: 'rejected', reason: { code: 'CONFLICT' } })
            expect(exists).toBe(true)
            expect(
              (await store.payments.listPaymentCids(TENANT, instruction.id, { limit: 10, order: 'ASC' }))?.items,
            ).toHaveLength(1)
          } else {
            expect(attached.reason).toMatchObject({ code: 'NOT_FOUND' })
            expect(deleted).toEqual({ status: 'fulfilled', value: true })
            expect(exists).toBe(false)
          }
        }
      })
    })

    describe('attached CIDs', () => {
      it('attachPaymentCid - attaches a CID the tenant holds on either network; idempotent', async () => {
        const priv = await addFile({ network: 'private' })
        const pub = await addFile({ network: 'public' })
        const instruction = await store.payments.createPaymentInstruction(newInstruction())
        const first = await store.payments.attachPaymentCid(TENANT, instruction.id, priv.cid, at(1))
        expect(first).toEqual({ instructionId: instruction.id, cid: priv.cid, createdAt: at(1) })
        expect(await store.payments.attachPaymentCid(TENANT, instruction.id, priv.cid, at(9))).toEqual(first)
        expect(await store.payments.attachPaymentCid(TENANT, instruction.id, pub.cid, at(2))).toMatchObject({
          cid: pub.cid,
        })
      })

      it('attachPaymentCid - NOT_FOUND for a CID the tenant does not hold (even when another tenant does)', async () => {
        const theirs = await addFile({ tenantId: OTHER_TENANT })
        const instruction = await store.payments.createPaymentInstruction(newInstruction())
        await expect(store.payments.attachPaymentCid(TENANT, instruction.id, theirs.cid, at(1))).rejects.toMatchObject({
          code: 'NOT_FOUND',
        })
        await expect(store.payments.attachPaymentCid(TENANT, instruction.id, newCid(), at(1))).rejects.toMatchObject({
          code: 'NOT_FOUND',
        })
        expect(
          (await store.payments.listPaymentCids(TENANT, instruction.id, { limit: 10, order: 'ASC' }))?.items,
        ).toEqual([])
      })

      it("attachPaymentCid - NOT_FOUND for another tenant's, an unknown or a non-UUID instruction", async () => {
        const file = await addFile()
        const theirs = await store.payments.createPaymentInstruction(newInstruction({ tenantId: OTHER_TENANT }))
        for (const id of [theirs.id, randomUUID(), 'nope']) {
          await expect(store.payments.attachPaymentCid(TENANT, id, file.cid, at(1))).rejects.toMatchObject({
            code: 'NOT_FOUND',
          })
        }
        expect(await store.payments.findPricedCid(file.cid)).toBeUndefined()
      })

      it('attachPaymentCid - a CID prices one instruction per tenant: CONFLICT, and of concurrent attaches one wins', async () => {
        const file = await addFile()
        const a = await store.payments.createPaymentInstruction(newInstruction())
        const b = await store.payments.createPaymentInstruction(newInstruction())
        const results = await Promise.allSettled([
          store.payments.attachPaymentCid(TENANT, a.id, file.cid, at(1)),
          store.payments.attachPaymentCid(TENANT, b.id, file.cid, at(1)),
        ])
        expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
        expect(results.find((r) => r.status === 'rejected')).toMatchObject({ reason: { code: 'CONFLICT' } })
        expect((await listAll({ cid: file.cid })).items).toHaveLength(1)
      })

      it('detachPaymentCid - removes the attachment; false when it is not there', async () => {
        const file = await addFile()
        const instruction = await store.payments.createPaymentInstruction(newInstruction())
        await store.payments.attachPaymentCid(TENANT, instruction.id, file.cid, at(1))
        expect(await store.payments.detachPaymentCid(OTHER_TENANT, instruction.id, file.cid)).toBe(false)
        expect(await store.payments.detachPaymentCid(TENANT, instruction.id, file.cid)).toBe(true)
        expect(await store.payments.detachPaymentCid(TENANT, instruction.id, file.cid)).toBe(false)
        expect(await store.payments.detachPaymentCid(TENANT, 'nope', file.cid)).toBe(false)
        expect(await store.payments.findPricedCid(file.cid)).toBeUndefined()
      })

      it('listPaymentCids - keyset pages by (createdAt, cid); undefined for an instruction the tenant lacks', async () => {
        const instruction = await store.payments.createPaymentInstruction(newInstruction())
        const cids: { cid: string; createdAt: Date }[] = []
        for (let i = 0; i < 5; i++) {
          const file = await addFile()
          const createdAt = at(i % 2)
          await store.payments.attachPaymentCid(TENANT, instruction.id, file.cid, createdAt)
          cids.push({ cid: file.cid, createdAt })
        }
        const expected = cids
          .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.cid < b.cid ? -1 : 1))
          .map((c) => c.cid)
        const seen: string[] = []
        let after: { createdAt: Date; id: string } | undefined
        for (;;) {
          const page = await store.payments.listPaymentCids(TENANT, instruction.id, { limit: 2, order: 'ASC', after })
          if (!page) throw new Error('instruction vanished')
          seen.push(...page.items.map((c) => c.cid))
          const last = page.items.at(-1)
          if (!page.hasMore || !last) break
          after = { createdAt: last.createdAt, id: last.cid }
        }
        expect(seen).toEqual(expected)
        const desc = await store.payments.listPaymentCids(TENANT, instruction.id, { limit: 1000, order: 'DESC' })
        expect(desc?.items.map((c) => c.cid)).toEqual([...expected].reverse())
        expect(
          await store.payments.listPaymentCids(OTHER_TENANT, instruction.id, { limit: 10, order: 'ASC' }),
        ).toBeUndefined()
        expect(await store.payments.listPaymentCids(TENANT, 'nope', { limit: 10, order: 'ASC' })).toBeUndefined()
      })
    })

    describe('findPricedCid', () => {
      it('findPricedCid - the oldest attachment across tenants whose tenant still holds the CID wins', async () => {
        const cid = newCid()
        const mine = await addFile({ cid })
        await addFile({ cid, tenantId: OTHER_TENANT })
        const early = await store.payments.createPaymentInstruction(
          newInstruction({ tenantId: OTHER_TENANT, name: 'early' }),
        )
        const late = await store.payments.createPaymentInstruction(newInstruction({ name: 'late' }))
        await store.payments.attachPaymentCid(TENANT, late.id, cid, at(5))
        await store.payments.attachPaymentCid(OTHER_TENANT, early.id, cid, at(2))
        expect(await store.payments.findPricedCid(cid)).toEqual({ instruction: early, attachedAt: at(2) })
        // the other tenant deletes its file: its attachment no longer sells anything
        const theirs = (await store.files.listFiles(OTHER_TENANT, 'private', { cid }, { limit: 10, order: 'ASC' }))
          .items[0]!
        await store.files.deleteFile(OTHER_TENANT, 'private', theirs.id)
        expect(await store.payments.findPricedCid(cid)).toEqual({ instruction: late, attachedAt: at(5) })
        await store.files.deleteFile(TENANT, 'private', mine.id)
        expect(await store.payments.findPricedCid(cid)).toBeUndefined()
      })

      it('findPricedCid - undefined for a CID attached to nothing', async () => {
        const file = await addFile()
        expect(await store.payments.findPricedCid(file.cid)).toBeUndefined()
        expect(await store.payments.findPricedCid(newCid())).toBeUndefined()
      })
    })

    describe('claimPaymentNonce', () => {
      it('claimPaymentNonce - the first claim wins, every later one is a duplicate; keys are per (payer, nonce)', async () => {
        const payer = `0x${randomUUID().replaceAll('-', '').padEnd(40, '0')}`
        const nonce = `0x${'ab'.repeat(32)}`
        expect(await store.payments.claimPaymentNonce(payer, nonce, FUTURE)).toBe('claimed')
        expect(await store.payments.claimPaymentNonce(payer, nonce, FUTURE)).toBe('duplicate')
        expect(await store.payments.claimPaymentNonce(payer, `0x${'cd'.repeat(32)}`, FUTURE)).toBe('claimed')
        expect(await store.payments.claimPaymentNonce(`0x${'1'.repeat(40)}`, nonce, FUTURE)).toBe('claimed')
      })

      it('claimPaymentNonce - of 20 concurrent claims of one payment exactly one is claimed', async () => {
        const payer = `0x${'2'.repeat(40)}`
        const nonce = `0x${randomUUID().replaceAll('-', '').repeat(2)}`
        const results = await Promise.all(
          Array.from({ length: 20 }, () => store.payments.claimPaymentNonce(payer, nonce, FUTURE)),
        )
        expect(results.filter((r) => r === 'claimed')).toHaveLength(1)
        expect(results.filter((r) => r === 'duplicate')).toHaveLength(19)
      })

      it('payment methods - an aborted signal rejects with ABORTED and changes nothing', async () => {
        const file = await addFile()
        const instruction = await store.payments.createPaymentInstruction(newInstruction())
        const signal = AbortSignal.abort()
        const page = { limit: 10, order: 'ASC' } as const
        const calls: [string, () => Promise<unknown>][] = [
          ['create', () => store.payments.createPaymentInstruction(newInstruction(), { signal })],
          ['get', () => store.payments.getPaymentInstruction(TENANT, instruction.id, { signal })],
          ['list', () => store.payments.listPaymentInstructions(TENANT, {}, page, { signal })],
          ['update', () => store.payments.updatePaymentInstruction(TENANT, instruction.id, { name: 'x' }, { signal })],
          ['delete', () => store.payments.deletePaymentInstruction(TENANT, instruction.id, { signal })],
          ['attach', () => store.payments.attachPaymentCid(TENANT, instruction.id, file.cid, at(1), { signal })],
          ['detach', () => store.payments.detachPaymentCid(TENANT, instruction.id, file.cid, { signal })],
          ['listCids', () => store.payments.listPaymentCids(TENANT, instruction.id, page, { signal })],
          ['findPricedCid', () => store.payments.findPricedCid(file.cid, { signal })],
          ['claim', () => store.payments.claimPaymentNonce('0xpayer', '0xnonce', FUTURE, { signal })],
        ]
        for (const [method, call] of calls) await expect(call(), method).rejects.toMatchObject({ code: 'ABORTED' })
        expect(await store.payments.getPaymentInstruction(TENANT, instruction.id)).toEqual(instruction)
        expect((await listAll()).items).toHaveLength(1)
        expect(await store.payments.claimPaymentNonce('0xpayer', '0xnonce', FUTURE)).toBe('claimed')
      })
    })
  })
}
