import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { Denylists, type ListProblem, ListReader, parseAnyCid } from '../../src/index.js'

/**
 * NOpfs's blocker validator (`tester/tester.go`), restated: its list `test.deny` (copied unchanged
 * into fixtures/) read by our reader, and every path and CID its suite expects blocked or allowed.
 */

const vectors = readFileSync(new URL('./fixtures/nopfs-test.deny', import.meta.url))

function load(text: Uint8Array | string, name = 'test.deny') {
  const lists = new Denylists()
  const problems: ListProblem[] = []
  const reader = new ListReader(lists.list(name), (problem) => problems.push(problem))
  reader.push(typeof text === 'string' ? new TextEncoder().encode(text) : text)
  reader.end()
  return { lists, problems, index: reader.index }
}

const { lists, problems, index } = load(vectors)

function blockedPath(path: string): boolean {
  const [, namespace, root = '', ...rest] = path.split('/')
  const query =
    namespace === 'ipfs'
      ? { namespace: 'ipfs' as const, cid: parseAnyCid(root), path: rest.join('/') }
      : { namespace: 'ipns' as const, name: root, path: rest.join('/') }
  return lists.check(query) !== undefined
}
const blockedCid = (cid: string) => lists.checkCid(parseAnyCid(cid)) !== undefined

function expectPaths(blocked: string[], allowed: string[]) {
  for (const path of blocked) expect(blockedPath(path), `${path} is blocked`).toBe(true)
  for (const path of allowed) expect(blockedPath(path), `${path} is allowed`).toBe(false)
}

describe('deny lists: the NOpfs test vectors', () => {
  it('read - the whole list parses without a problem, with its header', () => {
    expect(problems).toEqual([])
    expect(index.header).toMatchObject({ version: 1, name: 'Testing denylist', author: '@hsanjuan' })
    expect(index.rules).toBe(28)
  })

  it('header - name and hints; a list that is only `---` and rules has an empty header', () => {
    const withHeader = load('version: 1\nname: test\nhints:\n  a: b\n---\n# empty\n')
    expect(withHeader.problems).toEqual([])
    expect(withHeader.index.header).toMatchObject({ name: 'test', hints: { a: 'b' } })
    const bare = load('---\n/ipfs/bafybeihvvulpp4evxj7x7armbqcyg6uezzuig6jp3lktpbovlqfkuqeuoq\n')
    expect(bare.problems).toEqual([])
    expect(bare.index.rules).toBe(1)
  })

  it('rule1 - a CID blocks every CID of its multihash, not the paths below it', () => {
    const cids = [
      'bafybeihvvulpp4evxj7x7armbqcyg6uezzuig6jp3lktpbovlqfkuqeuoq',
      'bafkreihvvulpp4evxj7x7armbqcyg6uezzuig6jp3lktpbovlqfkuqeuoq',
      'QmesfgDQ3q6prBy2Kg2gKbW4MAGuWiRP2DVuGA5MZSERLo',
    ]
    for (const cid of cids) expect(blockedCid(cid), cid).toBe(true)
    expectPaths(
      cids.map((cid) => `/ipfs/${cid}`),
      [
        '/ipfs/bafybeihvvulpp4evxj7x7armbqcyg6uezzuig6jp3lktpbovlqfkuqeuoq/sub2',
        '/ipfs/bafkreihvvulpp4evxj7x7armbqcyg6uezzuig6jp3lktpbovlqfkuqeuoq/sub3',
        '/ipfs/QmesfgDQ3q6prBy2Kg2gKbW4MAGuWiRP2DVuGA5MZSERLo/sub4',
      ],
    )
  })

  it('rule15 - the empty block, file and directory are never blocked', () => {
    for (const cid of [
      'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn',
      'bafyaabakaieac',
      'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku',
      'bafkqaaa',
      'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH',
      'bafyreigbtj4x7ip5legnfznufuopl4sg4knzc2cof6duas4b3q2fy6swua',
      'baguqeeraiqjw7i2vwntyuekgvulpp2det2kpwt6cd7tx5ayqybqpmhfk76fa',
    ]) {
      expect(blockedCid(cid), cid).toBe(false)
    }
  })

  it('rule2 to rule5 - sub-paths: all, prefixes, and allow rules that carve exceptions', () => {
    const r2 = '/ipfs/QmdWFA9FL52hx3j9EJZPQP1ZUH8Ygi5tLCX2cRDs6knSf8'
    expectPaths([r2, `${r2}/a/b`, `${r2}/z/`, `${r2}/z`], [])
    const r3 = '/ipfs/Qmah2YDTfrox4watLCr3YgKyBwvjq8FJZEFdWY6WtJ3Xt2'
    expectPaths([`${r3}/test`, `${r3}/test2`, `${r3}/test/one`], [`${r3}/tes`, r3, `${r3}/one/test`])
    const r4 = '/ipfs/QmTuvSQbEDR3sarFAN9kAeXBpiBCyYYNxdxciazBba11eC'
    expectPaths([`${r4}/test`, `${r4}/test2`, `${r4}/test/one`], [`${r4}/tes`, r4, `${r4}/one/test`])
    const r5 = '/ipfs/QmUboz9UsQBDeS6Tug1U8jgoFkgYxyYood9NDyVURAY9pK'
    expectPaths(
      [`${r5}/blocked`, `${r5}/blocked2`],
      [
        `${r5}/blockednot`,
        `${r5}/blocked/not`,
        `${r5}/blocked/exceptions`,
        `${r5}/blocked/exceptions2`,
        `${r5}/blocked/exceptions/one`,
      ],
    )
  })

  it('rule6 to rule8 - IPNS names: domains (inlined too), a domain path, a key in any spelling', () => {
    expectPaths(
      ['/ipns/domain.example', '/ipns/domain-example'],
      ['/ipns/domainaefa.example', '/ipns/domain.example/path', '/ipns/domain--example'],
    )
    expectPaths(['/ipns/domain2.example/path'], ['/ipns/domain2.example', '/ipns/domain2.example/path2'])
    expectPaths(
      [
        '/ipns/k51qzi5uqu5dhmzyv3zac033i7rl9hkgczxyl81lwoukda2htteop7d3x0y1mf',
        '/ipns/bafzaajaiaejcaotjfs57kieazxny5japcmy5p2pgv2cic77tu6ogghttvurnrufx',
        '/ipns/12D3KooWDkNqEJNmreF3NYYFK1ws7Ra2fuW6cHBTu567SPV3LdYA',
      ],
      ['/ipns/12D3KooWDkNqEJNmreF3NYYFK1ws7Ra2fuW6cHBTu567SPV3LdYA/path'],
    )
  })

  it('rule10 and rule11 - legacy (badbits) double hashes of a CID, a key, a domain, a path', () => {
    expect(blockedCid('bafybeiefwqslmf6zyyrxodaxx4vwqircuxpza5ri45ws3y5a62ypxti42e')).toBe(true)
    expectPaths(
      [
        '/ipns/k51qzi5uqu5dixwsch9wpd9rolqby1m0uqj5hhxwtxal0dwltastfmh01dlniq',
        '/ipns/bafzaajaiaejca3vrvdzmu4qntwa2pn6apsd4ug5k63ckdyhnd3g6vdvgvujdw62s',
        '/ipns/very-bad-example.eth',
        '/ipns/very-bad-example.eth/',
      ],
      [],
    )
    const root = '/ipfs/bafybeiefwqslmf6zyyrxodaxx4vwqircuxpza5ri45ws3y5a62ypxti42e'
    expectPaths([`${root}/`, root, `${root}/path`], [`${root}/path2`])
  })

  it('rule12 to rule14 - modern double hashes: sha2-256 and blake3, CIDs, paths, IPNS names', () => {
    expect(blockedCid('bafybeidjwik6im54nrpfg7osdvmx7zojl5oaxqel5cmsz46iuelwf5acja')).toBe(true)
    expect(blockedCid('QmVTF1yEejXd9iMgoRTFDxBv7HAz9kuZcQNBzHrceuK9HR')).toBe(true)
    const b3 = '/ipfs/bafyb4ieqht3b2rssdmc7sjv2cy2gfdilxkfh7623nvndziyqnawkmo266a'
    const b3hex = '/ipfs/f01701e20903cf61d46521b05f926ba1634628d0bba8a7ffb5b6d5a3ca310682ca63b5ef0'
    expectPaths([`${b3}/path`, `${b3hex}/path`], [`${b3}/`, `${b3hex}/`, `${b3}/path2`, `${b3hex}/path2`])
    expectPaths(
      [
        '/ipns/my.domain.com',
        '/ipns/my.domain2.com/path',
        '/ipns/k51qzi5uqu5dixwsch9wpd9rolqby1m0uqj5hhxwtxal0dwltastfmh01dabcd',
        '/ipns/k51qzi5uqu5dixwsch9wpd9rolqby1m0uqj5hhxwtxal0dwltastfmh01d1234/mypath',
        '/ipns/bafzaajaiaejca3vrvdzmu4qntwa2pn6apsd4ug5k63ckdyhnd3g6vdvgvujczuoq/mypath',
      ],
      ['/ipns/my.domain2.com/path2', '/ipns/k51qzi5uqu5dixwsch9wpd9rolqby1m0uqj5hhxwtxal0dwltastfmh01d1234/mypath2'],
    )
  })
})
