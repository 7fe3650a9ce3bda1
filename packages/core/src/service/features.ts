import type { Embedder, PaymentSettings, PaymentVerifier, TextExtractor, WebhookTransport } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import type { Feature } from './file-service-api.js'

/** The `createFileService` options optional features depend on. */
export interface FeaturePrerequisites {
  signingSecret: string | Uint8Array
  payments: PaymentVerifier
  paymentSettings: PaymentSettings
  embedder: Embedder
  textExtractor: TextExtractor
  webhookTransport: WebhookTransport
}

/** Each optional feature, how errors name it (with its verb), and the options it cannot work without. */
const FEATURES = {
  signedUploads: { label: 'signed upload URLs are', needs: ['signingSecret'] },
  downloadLinks: { label: 'download links are', needs: ['signingSecret'] },
  paymentInstructions: { label: 'x402 payment instructions are', needs: ['paymentSettings'] },
  // the secret signs the link a payment buys: checked up front, so no nonce is burned for nothing
  paidRetrieval: { label: 'x402 paid retrieval is', needs: ['paymentSettings', 'payments', 'signingSecret'] },
  vectors: { label: 'semantic vectors are', needs: ['embedder', 'textExtractor'] },
  // the secret signs the JWTs keys are issued with
  apiKeys: { label: 'API keys are', needs: ['signingSecret'] },
  // operator tokens are verified under a key derived from the secret
  operators: { label: 'the admin API is', needs: ['signingSecret'] },
  // every delivery leaves through it, after its address check
  webhooks: { label: 'webhooks are', needs: ['webhookTransport'] },
} as const satisfies Record<Feature, { label: string; needs: readonly (keyof FeaturePrerequisites)[] }>

/** What a feature's operations may use once `require` let them through. */
export type PrerequisitesOf<F extends Feature> = Pick<FeaturePrerequisites, (typeof FEATURES)[F]['needs'][number]>

export interface ServiceFeatures {
  /** Which optional features this service offers, decided once by `createFileService`. */
  readonly enabled: Readonly<Record<Feature, boolean>>
  /**
   * The feature's prerequisites; when it is off, `UNAVAILABLE` (503) naming the missing options —
   * the same answer from every operation that needs it.
   */
  require<F extends Feature>(feature: F): PrerequisitesOf<F>
  /**
   * What an operation builds from the feature's prerequisites (a URL signer), built once, now; the
   * returned function gives it, or throws what `require` throws while the feature is off.
   */
  derive<F extends Feature, T>(feature: F, build: (prerequisites: PrerequisitesOf<F>) => T): () => T
}

/**
 * Decides at construction which features are on. A feature with a prerequisite missing is off for the
 * service's whole life: its operations refuse before touching any store, request or payment.
 */
export function resolveFeatures(options: Partial<FeaturePrerequisites>): ServiceFeatures {
  // a snapshot: changing the caller's options object later must not turn a feature half on or off
  const given: Partial<FeaturePrerequisites> = {
    signingSecret: options.signingSecret,
    payments: options.payments,
    paymentSettings: options.paymentSettings,
    embedder: options.embedder,
    textExtractor: options.textExtractor,
    webhookTransport: options.webhookTransport,
  }
  const present = (name: keyof FeaturePrerequisites) => given[name] !== undefined
  const missing = (feature: Feature) => FEATURES[feature].needs.filter((name) => !present(name))
  const names = Object.keys(FEATURES) as Feature[]
  const enabled = Object.fromEntries(names.map((feature) => [feature, missing(feature).length === 0])) as Record<
    Feature,
    boolean
  >
  return {
    enabled: Object.freeze(enabled),
    require<F extends Feature>(feature: F) {
      if (!enabled[feature]) throw featureOff(feature, missing(feature))
      return given as PrerequisitesOf<F>
    },
    derive<F extends Feature, T>(feature: F, build: (prerequisites: PrerequisitesOf<F>) => T) {
      if (!enabled[feature]) {
        return () => {
          throw featureOff(feature, missing(feature))
        }
      }
      const built = build(given as PrerequisitesOf<F>)
      return () => built
    },
  }
}

function featureOff(feature: Feature, missing: readonly string[]): PinfoldError {
  const options = missing.map((name) => `\`${name}\``).join(', ')
  return new PinfoldError(
    'UNAVAILABLE',
    `${FEATURES[feature].label} unavailable: no ${missing.join(' or ')} configured (createFileService options ${options})`,
  )
}
