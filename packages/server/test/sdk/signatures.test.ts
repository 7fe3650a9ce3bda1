import type { PinataSDK } from 'pinata'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('official SDK - signatures', () => {
  let server: TestServer
  let pinata: PinataSDK
  beforeAll(async () => {
    server = await startTestServer()
    pinata = pinataFor(server.url, await server.token())
  })
  afterAll(() => server.close())

  it('signatures.public - add a valid EIP-712 signature, get it, delete it', async () => {
    const file = await pinata.upload.public.file(new File(['signed content'], 'signed.txt', { type: 'text/plain' }))
    const account = privateKeyToAccount(generatePrivateKey())
    const signature = await account.signTypedData({
      domain: { name: 'Sign Content', version: '1.0.0', chainId: 1 },
      types: {
        Sign: [
          { name: 'address', type: 'address' },
          { name: 'cid', type: 'string' },
          { name: 'date', type: 'string' },
        ],
      },
      primaryType: 'Sign',
      message: { address: account.address, cid: file.cid, date: file.created_at },
    })

    const added = await pinata.signatures.public.add({ cid: file.cid, signature, address: account.address })
    expect(added).toEqual({ cid: file.cid, signature })
    expect(await pinata.signatures.public.get(file.cid)).toEqual({ cid: file.cid, signature })
    expect(await pinata.signatures.public.delete(file.cid)).toBe('OK')
    await expect(pinata.signatures.public.get(file.cid)).rejects.toMatchObject({ statusCode: 404 })
  })

  it('signatures.public.add - a signature by another key is refused (400) and nothing is stored', async () => {
    const file = await pinata.upload.public.file(new File(['other content'], 'other.txt', { type: 'text/plain' }))
    const signer = privateKeyToAccount(generatePrivateKey())
    const claimed = privateKeyToAccount(generatePrivateKey())
    const signature = await signer.signMessage({ message: file.cid })
    await expect(
      pinata.signatures.public.add({ cid: file.cid, signature, address: claimed.address }),
    ).rejects.toMatchObject({ statusCode: 400 })
    await expect(pinata.signatures.public.get(file.cid)).rejects.toMatchObject({ statusCode: 404 })
  })
})
