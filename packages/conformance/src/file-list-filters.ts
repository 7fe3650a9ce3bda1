import type { FileFilter, FileRecord, KeyvalueOperator, RecordStore } from '@pinfold/interface'
import { describe, expect, it } from 'vitest'
import type { fileFixtures } from './file-fixtures.js'
import { at, TENANT } from './fixtures.js'
import { ids } from './paging.js'

/**
 * `listFiles`' filters that Pinata's legacy `pinList` needs (name and CID substrings, dates, sizes,
 * keyvalue conditions) and `offset`, part of the files suite: `KeyvalueCondition` holds the rules.
 */
export function describeFileListFilters(fixtures: ReturnType<typeof fileFixtures>, current: () => RecordStore): void {
  const { addFile, listAll } = fixtures
  const matching = async (filter: FileFilter) => ids((await listAll(filter)).items)

  describe('listFiles (legacy filters)', () => {
    it('listFiles - nameContains matches anywhere in the name, literally, ignoring case', async () => {
      const a = await addFile({ name: 'Annual Report.pdf', createdAt: at(1) })
      const b = await addFile({ name: 'report_2026', createdAt: at(2) })
      await addFile({ name: 'repo' })
      const pct = await addFile({ name: '100% done', createdAt: at(3) })
      await addFile({ name: '1000 done' })
      expect(await matching({ nameContains: 'REPORT' })).toEqual(ids([a, b]))
      expect(await matching({ nameContains: 'rt_2' })).toEqual(ids([b]))
      expect(await matching({ nameContains: '0% d' })).toEqual(ids([pct]))
      expect(await matching({ nameContains: '_' })).toEqual(ids([b]))
    })

    it('listFiles - cidContains matches part of the CID as written', async () => {
      const file = await addFile({ createdAt: at(1) })
      await addFile({ createdAt: at(2) })
      expect(await matching({ cidContains: file.cid.slice(10, 30) })).toEqual(ids([file]))
      expect(await matching({ cidContains: 'not-in-any-cid' })).toEqual([])
    })

    it('listFiles - createdFrom and createdTo are inclusive bounds', async () => {
      const files = [
        await addFile({ createdAt: at(1) }),
        await addFile({ createdAt: at(2) }),
        await addFile({ createdAt: at(3) }),
      ]
      expect(await matching({ createdFrom: at(2) })).toEqual(ids(files.slice(1)))
      expect(await matching({ createdTo: at(2) })).toEqual(ids(files.slice(0, 2)))
      expect(await matching({ createdFrom: at(2), createdTo: at(2) })).toEqual(ids([files[1]!]))
    })

    it('listFiles - sizeMin and sizeMax are inclusive bounds', async () => {
      const small = await addFile({ size: 10, createdAt: at(1) })
      const mid = await addFile({ size: 100, createdAt: at(2) })
      const big = await addFile({ size: 1000, createdAt: at(3) })
      expect(await matching({ sizeMin: 100 })).toEqual(ids([mid, big]))
      expect(await matching({ sizeMax: 100 })).toEqual(ids([small, mid]))
      expect(await matching({ sizeMin: 11, sizeMax: 999 })).toEqual(ids([mid]))
    })

    it('listFiles - keyvalue conditions on numbers compare numerically, and only decimal values match', async () => {
      const two = await addFile({ keyvalues: { level: '2' }, createdAt: at(1) })
      const ten = await addFile({ keyvalues: { level: '10' }, createdAt: at(2) })
      const frac = await addFile({ keyvalues: { level: '-1.5' }, createdAt: at(3) })
      await addFile({ keyvalues: { level: 'high' }, createdAt: at(4) })
      await addFile({ keyvalues: { other: '5' }, createdAt: at(5) })
      const on = (op: KeyvalueOperator, value: number, secondValue?: number) =>
        matching({ keyvalueConditions: [{ key: 'level', op, value, secondValue }] })
      expect(await on('gt', 2)).toEqual(ids([ten]))
      expect(await on('gte', 2)).toEqual(ids([two, ten]))
      expect(await on('lt', 2)).toEqual(ids([frac]))
      expect(await on('lte', 2)).toEqual(ids([two, frac]))
      expect(await on('eq', 10)).toEqual(ids([ten]))
      expect(await on('ne', 10)).toEqual(ids([two, frac]))
      expect(await on('between', 0, 10)).toEqual(ids([two, ten]))
      expect(await on('notBetween', 0, 5)).toEqual(ids([ten, frac]))
    })

    it('listFiles - keyvalue conditions on strings compare as text by code point; a missing key never matches', async () => {
      const apple = await addFile({ keyvalues: { fruit: 'apple' }, createdAt: at(1) })
      const banana = await addFile({ keyvalues: { fruit: 'banana' }, createdAt: at(2) })
      const upper = await addFile({ keyvalues: { fruit: 'Cherry' }, createdAt: at(3) })
      const ten = await addFile({ keyvalues: { fruit: '10' }, createdAt: at(4) })
      await addFile({ keyvalues: {}, createdAt: at(5) })
      const on = (op: KeyvalueOperator, value: string, secondValue?: string) =>
        matching({ keyvalueConditions: [{ key: 'fruit', op, value, secondValue }] })
      expect(await on('gt', 'apple')).toEqual(ids([banana]))
      expect(await on('lt', 'apple')).toEqual(ids([upper, ten]))
      expect(await on('ne', 'apple')).toEqual(ids([banana, upper, ten]))
      expect(await on('between', 'a', 'b')).toEqual(ids([apple]))
      expect(await on('gt', '9')).toEqual(ids([apple, banana, upper]))
    })

    it('listFiles - like patterns: % and _ wildcards, \\ escapes, iLike ignores case', async () => {
      const a = await addFile({ keyvalues: { tag: 'Alpha_1' }, createdAt: at(1) })
      const b = await addFile({ keyvalues: { tag: 'alphaX1' }, createdAt: at(2) })
      const c = await addFile({ keyvalues: { tag: '50% off' }, createdAt: at(3) })
      await addFile({ createdAt: at(4) })
      const on = (op: KeyvalueOperator, value: string) => matching({ keyvalueConditions: [{ key: 'tag', op, value }] })
      expect(await on('like', 'alpha%')).toEqual(ids([b]))
      expect(await on('iLike', 'alpha%')).toEqual(ids([a, b]))
      expect(await on('iLike', 'alpha\\_1')).toEqual(ids([a]))
      expect(await on('like', '_lpha_1')).toEqual(ids([a, b]))
      expect(await on('like', '_lpha\\_1')).toEqual(ids([a]))
      expect(await on('notLike', '%\\%%')).toEqual(ids([a, b]))
      expect(await on('notILike', 'ALPHA%')).toEqual(ids([c]))
    })

    it('listFiles - several conditions and filters combine with AND', async () => {
      const hit = await addFile({ name: 'x-ray', size: 50, keyvalues: { a: '1', b: 'yes' }, createdAt: at(1) })
      await addFile({ name: 'x-ray', size: 50, keyvalues: { a: '1', b: 'no' }, createdAt: at(2) })
      await addFile({ name: 'x-ray', size: 5, keyvalues: { a: '1', b: 'yes' }, createdAt: at(3) })
      await addFile({ name: 'gamma', size: 50, keyvalues: { a: '1', b: 'yes' }, createdAt: at(4) })
      const filter: FileFilter = {
        nameContains: 'RAY',
        sizeMin: 10,
        keyvalueConditions: [
          { key: 'a', op: 'gte', value: 1 },
          { key: 'b', op: 'eq', value: 'yes' },
        ],
      }
      expect(await matching(filter)).toEqual(ids([hit]))
    })

    it('listFiles - offset skips that many files in order, before the limit', async () => {
      const files: FileRecord[] = []
      for (let second = 0; second < 7; second++) files.push(await addFile({ createdAt: at(second) }))
      const page = await current().files.listFiles(TENANT, 'public', {}, { limit: 3, order: 'ASC', offset: 2 })
      expect(ids(page.items)).toEqual(ids(files.slice(2, 5)))
      expect(page.hasMore).toBe(true)
      const last = await current().files.listFiles(TENANT, 'public', {}, { limit: 3, order: 'DESC', offset: 4 })
      expect(ids(last.items)).toEqual(ids(files.slice(0, 3).reverse()))
      expect(last.hasMore).toBe(false)
      const beyond = await current().files.listFiles(TENANT, 'public', {}, { limit: 3, order: 'ASC', offset: 7 })
      expect(beyond).toEqual({ items: [], hasMore: false })
    })
  })
}
