import { describe, expect, it } from 'vitest'
import type { SignatureInput } from '../../src/index.js'
import { alice, createTestService, mallory, START, type TestService, uploadFile } from '../support/test-service.js'

/**
 * A fixed EIP-712 signature. viem is not a dependency of this package, and every input of the
 * typed data is pinned by the test service (the CID of "hello world", the clock's start), so one
 * signature made once is enough; tests vary the other side. Made with
 * `privateKeyToAccount(ANVIL_KEY_0).signTypedData({ domain: CID_SIGNATURE_DOMAIN,
 * types: CID_SIGNATURE_TYPES, primaryType: 'Sign', message: { address, cid: HELLO_V1, date } })`
 * where ANVIL_KEY_0 is Anvil's/Hardhat's public test key 0xac09…ff80.
 */
const SIGNED = {
  content: 'hello world',
  cid: 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e',
  date: START,
  address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  signature:
    '0x2024dcffe60078d9d2de37161c928bf55557b44e3f26a7c7295c1b7aa8a9b3d169c69543cdb6bfea26c7d53fd363ca9e729ac764d7af273715d956ebc8e857ef1c',
} as const

/** Anvil's test account 1: a valid address that did not make the signature. */
const OTHER_ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

const body = { signature: SIGNED.signature, address: SIGNED.address }

const expectNoSignature = (test: TestService) =>
  expect(test.service.signatures.get(alice, 'public', SIGNED.cid)).rejects.toMatchObject({ code: 'NOT_FOUND' })

describe('signatures', () => {
  it('add - a signature over (address, cid, first stored date) is kept and returned', async () => {
    const test = createTestService()
    await uploadFile(test.service, alice, SIGNED.content, { network: 'public' })
    test.clock.advance(60_000) // the signed date is the file's, not the moment of adding
    const added = await test.service.signatures.add(alice, 'public', SIGNED.cid, body)
    const expected = { ...body, tenantId: alice.tenantId, network: 'public', cid: SIGNED.cid }
    expect(added).toMatchObject({ ...expected, createdAt: new Date(START.getTime() + 60_000) })
    expect(await test.service.signatures.get(alice, 'public', SIGNED.cid)).toMatchObject(expected)
  })

  it('add - the date is that of the oldest file holding the CID', async () => {
    const test = createTestService()
    const first = await uploadFile(test.service, alice, SIGNED.content, { network: 'public' })
    test.clock.advance(1_000)
    await uploadFile(test.service, alice, SIGNED.content, { network: 'public', name: 'again' })
    await test.service.files.delete(alice, 'public', first.file.id)
    // the CID is now first held at START + 1 s: the signature over START no longer matches
    await expect(test.service.signatures.add(alice, 'public', SIGNED.cid, body)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    await expectNoSignature(test)
  })

  it.each([
    ['another address', { ...body, address: OTHER_ADDRESS }],
    [
      'a signature with one digit of r changed',
      { ...body, signature: `${SIGNED.signature.slice(0, 10)}f${SIGNED.signature.slice(11)}` },
    ],
  ])('add - %s does not verify: INVALID_INPUT, nothing kept', async (_what, given) => {
    const test = createTestService()
    await uploadFile(test.service, alice, SIGNED.content, { network: 'public' })
    await expect(test.service.signatures.add(alice, 'public', SIGNED.cid, given)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
    await expectNoSignature(test)
  })

  it('add - a signature for another CID does not verify', async () => {
    const test = createTestService()
    const { file } = await uploadFile(test.service, alice, 'other content', { network: 'public' })
    await expect(test.service.signatures.add(alice, 'public', file.cid, body)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
  })

  it.each([
    ['an address that is not one', { ...body, address: '0x1234' }],
    ['a missing address', { signature: SIGNED.signature, address: undefined }],
    ['a signature that is not hex', { ...body, signature: `0x${'zz'.repeat(65)}` }],
    ['a short signature', { ...body, signature: '0xabcdef' }],
  ])('add - %s is INVALID_INPUT', async (_what, given) => {
    const test = createTestService()
    await uploadFile(test.service, alice, SIGNED.content, { network: 'public' })
    // as a JavaScript caller or an HTTP body may give it: the types do not hold
    const input = given as SignatureInput
    await expect(test.service.signatures.add(alice, 'public', SIGNED.cid, input)).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
  })

  it('add - a CID the tenant does not hold on that network is NOT_FOUND', async () => {
    const test = createTestService()
    await uploadFile(test.service, alice, SIGNED.content, { network: 'public' })
    await expect(test.service.signatures.add(alice, 'private', SIGNED.cid, body)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(test.service.signatures.add(mallory, 'public', SIGNED.cid, body)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })

  it('add - a CID keeps one signature: a second is CONFLICT', async () => {
    const test = createTestService()
    await uploadFile(test.service, alice, SIGNED.content, { network: 'public' })
    await test.service.signatures.add(alice, 'public', SIGNED.cid, body)
    await expect(test.service.signatures.add(alice, 'public', SIGNED.cid, body)).rejects.toMatchObject({
      code: 'CONFLICT',
    })
  })

  it("get - another tenant holding the same CID does not see the tenant's signature", async () => {
    const test = createTestService()
    await uploadFile(test.service, alice, SIGNED.content, { network: 'public' })
    await uploadFile(test.service, mallory, SIGNED.content, { network: 'public' })
    await test.service.signatures.add(alice, 'public', SIGNED.cid, body)
    await expect(test.service.signatures.get(mallory, 'public', SIGNED.cid)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
    await expect(test.service.signatures.remove(mallory, 'public', SIGNED.cid)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })

  it('remove - the signature is gone; removing it twice is NOT_FOUND', async () => {
    const test = createTestService()
    await uploadFile(test.service, alice, SIGNED.content, { network: 'public' })
    await test.service.signatures.add(alice, 'public', SIGNED.cid, body)
    await test.service.signatures.remove(alice, 'public', SIGNED.cid)
    await expectNoSignature(test)
    await expect(test.service.signatures.remove(alice, 'public', SIGNED.cid)).rejects.toMatchObject({
      code: 'NOT_FOUND',
    })
  })
})
