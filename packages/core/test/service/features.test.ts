import { describe, expect, it } from 'vitest'
import {
  type BlobStore,
  createFileService,
  type Embedder,
  type FileServiceOptions,
  type PaymentVerifier,
  type RecordStore,
  type TextExtractor,
} from '../../src/index.js'

/**
 * Stores that fail the test when called: a feature that is off must refuse before any I/O. (What a
 * store can do — `presignGet`, `list` — is read at construction; that is no I/O.)
 */
const untouchable = <T extends object>(name: string) =>
  new Proxy({} as T, {
    get: (_, key) => () => {
      throw new Error(`${name}.${String(key)} was called`)
    },
  })

const actor = { tenantId: 'acme', userId: 'alice' }
const SECRET = 'a-signing-secret-that-is-at-least-32-bytes'
const signed = new URLSearchParams({ 'X-Signature': 'AAAA' })
const embedder: Embedder = { id: 'e', dimensions: 2, embed: async () => [] }
const textExtractor: TextExtractor = async () => []
const payments: PaymentVerifier = {
  verify: async () => ({ valid: false, reason: 'test' }),
  settle: async () => ({ success: false, transaction: '', network: '', payer: '' }),
}
const paymentSettings = { networks: [{}] } as unknown as FileServiceOptions['paymentSettings']

function service(options: Partial<FileServiceOptions>) {
  return createFileService({
    records: untouchable<RecordStore>('records'),
    blobs: untouchable<BlobStore>('blobs'),
    ...options,
  })
}

type Service = ReturnType<typeof service>

/** Every operation that needs each feature, with inputs that would otherwise get past validation. */
const OPERATIONS: Record<string, { missing: RegExp; calls: Record<string, (s: Service) => Promise<unknown>> }> = {
  'signed upload URLs': {
    missing: /no signingSecret configured \(createFileService options `signingSecret`\)/,
    calls: {
      'uploads.signed.sign': (s) => s.uploads.signed.sign(actor, { expires: 60 }),
      'uploads.signed.verify (signed)': async (s) => s.uploads.signed.verify('/v3/files/x', signed),
      'uploads.signed.verify (unsigned)': async (s) => s.uploads.signed.verify('/v3/files/x', new URLSearchParams()),
    },
  },
  'download links': {
    missing: /no signingSecret configured/,
    calls: {
      'downloadLinks.create': (s) =>
        s.downloadLinks.create(actor, { url: '/files/bafy', expires: 60 }, 'https://files.example.com'),
      'downloadLinks.open': (s) => s.downloadLinks.open('bafy', signed),
      'downloadLinks.open (unsigned)': (s) => s.downloadLinks.open('bafy', new URLSearchParams()),
    },
  },
  'x402 payment instructions': {
    missing: /no paymentSettings configured/,
    calls: {
      'payments.create': (s) => s.payments.create(actor, { name: 'x' }),
      'payments.update': (s) => s.payments.update(actor, 'id', { paymentRequirements: [{}] }),
    },
  },
  'x402 paid retrieval': {
    missing: /no paymentSettings or payments or signingSecret configured/,
    calls: {
      'payments.retrievePrivate': (s) =>
        s.payments.retrievePrivate('bafy', {
          resourceUrl: 'https://files.example.com/v1/retrieve/private/bafy',
          publicUrl: 'https://files.example.com',
          readPayment: () => undefined,
        }),
    },
  },
  'API keys': {
    missing: /no signingSecret configured/,
    calls: {
      'apiKeys.create': (s) =>
        s.apiKeys.create({ ...actor, scopes: new Set(['org:write']) }, { name: 'k', permissions: { admin: true } }),
    },
  },
  'the admin API': {
    missing: /no signingSecret configured/,
    calls: {
      'admin.authenticate': (s) => s.admin.authenticate('token'),
    },
  },
  'semantic vectors': {
    missing: /no embedder or textExtractor configured/,
    calls: {
      'vectors.vectorize': (s) => s.vectors.vectorize(actor, 'file'),
      'vectors.query': (s) => s.vectors.query(actor, 'group', { text: 'cats' }),
    },
  },
}

describe('createFileService features', () => {
  for (const [feature, { missing, calls }] of Object.entries(OPERATIONS)) {
    it(`${feature} - off without its options: every operation answers the same UNAVAILABLE, before any I/O`, async () => {
      const bare = service({})
      for (const [name, call] of Object.entries(calls)) {
        const error = await call(bare).then(
          () => new Error(`${name} succeeded`),
          (err: unknown) => err,
        )
        expect(error, name).toMatchObject({ code: 'UNAVAILABLE', message: expect.stringMatching(missing) })
        expect((error as Error).message, name).toMatch(new RegExp(`^${feature} (is|are) unavailable`))
      }
    })
  }

  it('features - the record says which features the options turn on', () => {
    expect(service({}).features).toEqual({
      signedUploads: false,
      downloadLinks: false,
      paymentInstructions: false,
      paidRetrieval: false,
      vectors: false,
      apiKeys: false,
      operators: false,
      webhooks: false,
    })
    expect(service({ signingSecret: SECRET, paymentSettings, embedder }).features).toEqual({
      signedUploads: true,
      downloadLinks: true,
      paymentInstructions: true,
      paidRetrieval: false,
      vectors: false,
      apiKeys: true,
      operators: true,
      webhooks: false,
    })
    expect(service({ signingSecret: SECRET, paymentSettings, payments, embedder, textExtractor }).features).toEqual({
      signedUploads: true,
      downloadLinks: true,
      paymentInstructions: true,
      paidRetrieval: true,
      vectors: true,
      apiKeys: true,
      operators: true,
      webhooks: false,
    })
  })

  it('features - decided at construction: changing the options object afterwards changes nothing', async () => {
    const stores = { records: untouchable<RecordStore>('records'), blobs: untouchable<BlobStore>('blobs') }
    const off: FileServiceOptions = { ...stores }
    const on: FileServiceOptions = { ...stores, signingSecret: SECRET }
    const [offService, onService] = [createFileService(off), createFileService(on)]
    off.signingSecret = SECRET
    on.signingSecret = undefined
    await expect(offService.uploads.signed.sign(actor, { expires: 60 })).rejects.toMatchObject({ code: 'UNAVAILABLE' })
    expect((await onService.uploads.signed.sign(actor, { expires: 60 })).query.has('X-Signature')).toBe(true)
  })

  it('vectors - an embedder without a text extractor names only the missing option', async () => {
    await expect(service({ embedder }).vectors.query(actor, 'g', { text: 'cats' })).rejects.toMatchObject({
      code: 'UNAVAILABLE',
      message: expect.stringMatching(/no textExtractor configured \(createFileService options `textExtractor`\)/),
    })
  })
})
