import { describe, expect, it } from 'vitest'
import { Denylists, type ListProblem, ListReader, parseAnyCid } from '../../src/index.js'

const A = 'bafybeihvvulpp4evxj7x7armbqcyg6uezzuig6jp3lktpbovlqfkuqeuoq'
const B = 'QmdWFA9FL52hx3j9EJZPQP1ZUH8Ygi5tLCX2cRDs6knSf8'
const bytes = (text: string) => new TextEncoder().encode(text)

function reader(lists: Denylists, name: string) {
  const problems: ListProblem[] = []
  return { reader: new ListReader(lists.list(name), (problem) => problems.push(problem)), problems }
}
const check = (lists: Denylists, cid: string, path = '') =>
  lists.check({ namespace: 'ipfs', cid: parseAnyCid(cid), path })

describe('deny lists: reading and matching', () => {
  it('read - a malformed line is skipped and reported with its list and line; the rest applies', () => {
    const lists = new Denylists()
    const { reader: list, problems } = reader(lists, 'ops.deny')
    list.push(bytes(`/ipfs/not-a-cid\n/ipfs/${A}\nhello\n//zzzz\n/ipfs/${B} gateway_status\n`))
    list.end()
    expect(problems).toEqual([
      { list: 'ops.deny', line: 1, reason: '"not-a-cid" is not a CID' },
      { list: 'ops.deny', line: 3, reason: 'a rule starts with /ipfs/, /ipns/, // or !' },
      { list: 'ops.deny', line: 4, reason: expect.stringContaining('double-hashed rule') },
      { list: 'ops.deny', line: 5, reason: 'a hint is key:value, not "gateway_status"' },
    ])
    expect(check(lists, A)).toEqual({ list: 'ops.deny', line: 2, status: 410, hints: {} })
    expect(check(lists, B)).toBeUndefined()
  })

  it('read - lines apply as they arrive; a line split across reads applies once its newline comes', () => {
    const lists = new Denylists()
    const { reader: list, problems } = reader(lists, 'live.deny')
    list.push(bytes('name: live\n---\n'))
    expect(list.index.header.name).toBe('live')
    list.push(bytes(`/ipfs/${A.slice(0, 20)}`))
    expect(check(lists, A)).toBeUndefined()
    expect(list.consumed).toBe('name: live\n---\n'.length)
    list.push(bytes(`${A.slice(20)}\n`))
    expect(check(lists, A)).toMatchObject({ line: 3 })
    list.push(bytes(`!/ipfs/${A}\n`))
    expect(check(lists, A)).toBeUndefined()
    expect(problems).toEqual([])
  })

  it('match - hints: the rule’s gateway_status, else the header’s, else 410', () => {
    const lists = new Denylists()
    const { reader: list } = reader(lists, 'legal.deny')
    list.push(bytes(`hints:\n  gateway_status: 451\n---\n/ipfs/${A}\n/ipfs/${B} gateway_status:403 reason:phishing\n`))
    expect(check(lists, A)).toMatchObject({ status: 451, line: 4 })
    expect(check(lists, B)).toEqual({
      list: 'legal.deny',
      line: 5,
      status: 403,
      hints: { gateway_status: '403', reason: 'phishing' },
    })
  })

  it('match - the last matching rule wins, across lists too; a list without header reads from line 1', () => {
    const lists = new Denylists()
    const first = reader(lists, 'a.deny').reader
    const second = reader(lists, 'b.deny').reader
    first.push(bytes(`/ipfs/${B}/*\n`))
    second.push(bytes(`# exceptions\n!/ipfs/${B}/docs*\n`))
    expect(check(lists, B, 'docs/readme')).toBeUndefined()
    expect(check(lists, B, 'other')).toMatchObject({ list: 'a.deny', line: 1 })
    first.push(bytes(`/ipfs/${B}/docs/secret\n`))
    // the later list still wins over a later line of an earlier list
    expect(check(lists, B, 'docs/secret')).toBeUndefined()
    lists.remove('b.deny')
    expect(check(lists, B, 'docs/secret')).toMatchObject({ list: 'a.deny', line: 2 })
  })

  it('read - a bad header is reported and the rules below it still apply', () => {
    const lists = new Denylists()
    const { reader: list, problems } = reader(lists, 'h.deny')
    list.push(bytes(`version: 2\n---\n/ipfs/${A}\n`))
    expect(problems).toEqual([
      { list: 'h.deny', line: 2, reason: 'the header is not valid: version 2 is not supported (only 1)' },
    ])
    expect(check(lists, A)).toMatchObject({ line: 3 })
  })
})
