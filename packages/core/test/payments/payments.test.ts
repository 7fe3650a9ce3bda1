import { describe, expect, it } from 'vitest'
import type {
  BlobStore,
  NewEvent,
  PaymentInstructionRecord,
  PaymentPayload,
  PaymentRequirement,
  PaymentSettings,
  PaymentVerifier,
  RecordStore,
} from '../../src/index.js'
import { createFileService } from '../../src/index.js'

const PAY_TO = '0x209693Bc6afc0C5328bA36FaF03C514EF312287C'
const SETTINGS: PaymentSettings = {
  networks: [
    {
      v1Name: 'base-sepolia',
      caip2: 'eip155:84532',
      chainId: 84532,
      usdc: { address: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', name: 'USDC', version: '2', decimals: 6 },
    },
  ],
  defaultPayTo: PAY_TO,
}
const INSTRUCTION: PaymentInstructionRecord = {
  id: 'i1',
  tenantId: 'acme',
  version: 1,
  paymentRequirements: [
    { asset: SETTINGS.networks[0]!.usdc.address, payTo: PAY_TO, network: 'base-sepolia', amount: '100' },
  ],
  name: 'premium',
  description: null,
  createdAt: new Date(0),
}
const PAYMENT: PaymentPayload = {
  x402Version: 1,
  scheme: 'exact',
  network: 'base-sepolia',
  signature: '0x00',
  authorization: {
    from: '0xAbCdEf0000000000000000000000000000000001',
    to: PAY_TO,
    value: '100',
    validAfter: '0',
    validBefore: '4102444800',
    nonce: `0x${'AB'.repeat(32)}`,
  },
}

/** Only the record methods paid retrieval uses; the log shows the order of every side effect. */
function setup(verifier: Partial<PaymentVerifier>, options: { secret?: boolean; settings?: boolean } = {}) {
  const log: string[] = []
  const claims = new Set<string>()
  const records = {
    payments: {
      findPricedCid: async () => ({ instruction: INSTRUCTION, attachedAt: new Date(0) }),
      claimPaymentNonce: async (payer: string, nonce: string) => {
        log.push(`claim ${payer} ${nonce}`)
        const key = `${payer}/${nonce}`
        if (claims.has(key)) return 'duplicate' as const
        claims.add(key)
        return 'claimed' as const
      },
    },
    events: {
      appendEvents: async (events: NewEvent[]) => {
        for (const event of events) log.push(`event ${event.type} ${event.tenantId} ${event.data.cid}`)
        return []
      },
    },
    blocks: {
      findHeldFile: async (tenantId: string, network: string) =>
        tenantId === 'acme' && network === 'private'
          ? { cid: 'bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e', tenantId }
          : undefined,
    },
  } as unknown as RecordStore
  const payments: PaymentVerifier = {
    verify: async (p, r) => {
      log.push('verify')
      return (
        verifier.verify ?? (async () => ({ valid: true, payer: p.authorization.from, nonce: p.authorization.nonce }))
      )(p, r)
    },
    settle: async (p, r) => {
      log.push('settle')
      return (verifier.settle ?? (async () => ({ success: true, transaction: '', network: p.network, payer: '' })))(
        p,
        r,
      )
    },
  }
  const service = createFileService({
    records,
    blobs: {} as BlobStore,
    payments,
    ...(options.settings === false ? {} : { paymentSettings: SETTINGS }),
    ...(options.secret === false ? {} : { signingSecret: 'a-test-secret-of-at-least-32-bytes-long!!' }),
  })
  const retrieve = (payment: PaymentPayload | null = PAYMENT) =>
    service.payments.retrievePrivate('bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e', {
      resourceUrl:
        'https://files.example.com/v1/retrieve/private/bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e',
      publicUrl: 'https://files.example.com',
      readPayment: (offers: readonly PaymentRequirement[]) =>
        payment ? { payment, requirement: offers[0]! } : undefined,
    })
  return { log, service, retrieve }
}

describe('payments.retrievePrivate', () => {
  it('retrievePrivate - offers the instruction as a full x402 requirement when no payment is sent', async () => {
    const { retrieve, log } = setup({})
    const result = await retrieve(null)
    expect(result).toEqual({
      paid: false,
      reason: undefined,
      requirements: [
        {
          scheme: 'exact',
          network: 'base-sepolia',
          asset: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
          payTo: PAY_TO,
          amount: '100',
          resource:
            'https://files.example.com/v1/retrieve/private/bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e',
          description: 'Private retrieval of bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e',
          mimeType: 'application/json',
          maxTimeoutSeconds: 60,
          extra: { name: 'USDC', version: '2' },
        },
      ],
    })
    expect(log).toEqual([])
  })

  it('retrievePrivate - verify, then claim the lowercased (payer, nonce), then settle, then the link', async () => {
    const { retrieve, log } = setup({})
    const result = await retrieve()
    expect(result).toMatchObject({ paid: true, x402Version: 1 })
    if (!result.paid) throw new Error('unpaid')
    expect(result.url).toMatch(
      /^https:\/\/files\.example\.com\/files\/bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e\?.*X-Signature=/,
    )
    expect(log).toEqual([
      'verify',
      `claim ${PAYMENT.authorization.from.toLowerCase()} 0x${'ab'.repeat(32)}`,
      'settle',
      // the seller's audit log records the settled payment
      `event payment.settled ${INSTRUCTION.tenantId} bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e`,
    ])
  })

  it('retrievePrivate - a refused verification claims nothing, so the payment stays usable', async () => {
    const { retrieve, log } = setup({ verify: async () => ({ valid: false, reason: 'insufficient_funds' }) })
    expect(await retrieve()).toMatchObject({ paid: false, reason: 'insufficient_funds' })
    expect(log).toEqual(['verify'])
  })

  it('retrievePrivate - a failed or unreachable settlement keeps the nonce burned', async () => {
    const failing = setup({
      settle: async () => ({
        success: false,
        transaction: '',
        network: 'base-sepolia',
        payer: '',
        errorReason: 'nope',
      }),
    })
    expect(await failing.retrieve()).toMatchObject({ paid: false, reason: 'nope' })
    expect(await failing.retrieve()).toMatchObject({ paid: false, reason: 'invalid_exact_evm_nonce_already_used' })

    const { PinfoldError } = await import('../../src/index.js')
    const down = setup({
      settle: async () => {
        throw new PinfoldError('UNAVAILABLE', 'facilitator down')
      },
    })
    await expect(down.retrieve()).rejects.toMatchObject({ code: 'UNAVAILABLE' })
    expect(await down.retrieve()).toMatchObject({ paid: false, reason: 'invalid_exact_evm_nonce_already_used' })
  })

  it('retrievePrivate - without a signing secret or settings it is UNAVAILABLE before any payment is touched', async () => {
    for (const options of [{ secret: false }, { settings: false }]) {
      const { retrieve, log } = setup({}, options)
      await expect(retrieve()).rejects.toMatchObject({ code: 'UNAVAILABLE' })
      expect(log).toEqual([])
    }
  })

  it('create - without payment settings is UNAVAILABLE', async () => {
    const { service } = setup({}, { settings: false })
    await expect(service.payments.create({ tenantId: 'acme', userId: 'u' }, { name: 'x' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
    })
  })
})
