import { CID } from 'multiformats/cid'
import { describe, expect, it } from 'vitest'
import { Denylists, ListIndex, ListReader, parseRuleLine, TENANT_LIST } from '../../src/index.js'

/**
 * How a tenant's own list meets the operator's (`Denylists.check` with a gateway tenant): it
 * applies only for that tenant, after the operator's lists; an operator's `!` does not stop it,
 * and its own `!` never undoes an operator's block.
 */
const A = CID.parse('bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy')
const B = CID.parse('bafkreiem4twkqzsq2aj4shbycd4yvoj2cx72vezicletlhi7dijjciqpui')

function tenantList(...lines: string[]): ListIndex {
  const list = new ListIndex(TENANT_LIST)
  for (const [at, line] of lines.entries()) list.add(parseRuleLine(line)!, at + 1)
  return list
}

function operator(lists: Denylists, text: string): void {
  const reader = new ListReader(lists.list('ops.deny'), (problem) => {
    throw new Error(problem.reason)
  })
  reader.push(new TextEncoder().encode(text))
  reader.end()
}

describe("deny lists: a tenant's own list", () => {
  it('applies on its own gateway only, with its hint', () => {
    const lists = new Denylists()
    lists.replaceTenantLists(new Map([['acme', tenantList(`/ipfs/${A} gateway_status:451`)]]))
    expect(lists.checkCid(A, 'acme')).toMatchObject({ list: 'tenant', line: 1, status: 451, tenant: 'acme' })
    expect(lists.checkCid(A)).toBeUndefined()
    expect(lists.checkCid(A, 'globex')).toBeUndefined()
    expect(lists.activeFor('acme')).toBe(true)
    expect(lists.activeFor('globex')).toBe(false)
    expect(lists.active).toBe(false)
  })

  it("comes after the operator's: an operator's ! does not stop it, its own ! never undoes an operator's block", () => {
    const lists = new Denylists()
    operator(lists, `!/ipfs/${A}\n/ipfs/${B}\n`)
    lists.replaceTenantLists(new Map([['acme', tenantList(`/ipfs/${A}`, `!/ipfs/${B}`)]]))
    expect(lists.checkCid(A, 'acme')).toMatchObject({ list: 'tenant', line: 1 })
    expect(lists.checkCid(B, 'acme')).toMatchObject({ list: 'ops.deny', line: 2 })
    expect(lists.checkCid(B, 'acme')?.tenant).toBeUndefined()
    expect(lists.checkCid(A)).toBeUndefined()
  })

  it('its own later ! undoes its own earlier rule', () => {
    const lists = new Denylists()
    lists.replaceTenantLists(new Map([['acme', tenantList(`/ipfs/${A}`, `!/ipfs/${A}`, `/ipfs/${B}/dir*`)]]))
    expect(lists.checkCid(A, 'acme')).toBeUndefined()
    expect(lists.check({ namespace: 'ipfs', cid: B, path: 'dir/x' }, 'acme')).toMatchObject({ line: 3 })
    expect(lists.check({ namespace: 'ipfs', cid: B, path: 'other' }, 'acme')).toBeUndefined()
  })
})
