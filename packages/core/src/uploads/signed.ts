import { invalid, isNetwork, type KeyValues, type Network, notFound, PinfoldError } from '@pinfold/interface'
import { createUrlSigner, SIGNATURE_PARAM } from '../auth/url-signing.js'
import { validateKeyvalues, validateName } from '../common/validate.js'
import type { ServiceContext } from '../service/context.js'
import type { SignedUploadOperations } from './api.js'

/** What signed upload URLs use of the service. */
export type SignedUploadSettings = Pick<ServiceContext, 'records' | 'ids' | 'clock' | 'features'>

/** Signed-URL parameters besides the signature; all of them are covered by it. */
export const SIGNED_UPLOAD_METHODS = '["HEAD","PATCH","POST"]'
const ALGORITHM = 'PINFOLD1'
/** A signing `date` may lie this far in the future (clock skew between client and server). */
const MAX_CLOCK_SKEW_SECONDS = 300
const MAX_MIME_TYPES = 100

/** The constraints baked into the URL (`X-Grant`, base64url JSON), short keys to keep URLs short. */
interface GrantClaims {
  t: string
  u: string
  n?: Network
  m?: number
  a?: string[]
  g?: string
  k?: KeyValues
  f?: string
}

/**
 * Signed upload URLs: every constraint travels inside the URL and is covered by its HMAC
 * signature (`createUrlSigner(secret, 'upload')`), so nothing unsigned can loosen them and no
 * record is needed. The path carries a fresh id, so two URLs never share a signature.
 */
export function createSignedUploadOperations(ctx: SignedUploadSettings): SignedUploadOperations {
  const signer = ctx.features.derive('signedUploads', ({ signingSecret }) => createUrlSigner(signingSecret, 'upload'))

  return {
    async sign(actor, request, options) {
      const signing = signer()
      const nowSeconds = Math.floor(ctx.clock.now().getTime() / 1000)
      const date = request.date ?? nowSeconds
      if (!Number.isSafeInteger(date) || date < 0) throw invalid('date must be a unix timestamp in seconds')
      if (date > nowSeconds + MAX_CLOCK_SKEW_SECONDS) throw invalid('date lies in the future')
      const expires = request.expires
      if (!Number.isSafeInteger(expires) || expires <= 0) throw invalid('expires must be a positive number of seconds')
      if (date + expires <= nowSeconds) throw invalid('date + expires lies in the past: the URL would never be valid')
      const claims: GrantClaims = { t: actor.tenantId, u: actor.userId }
      if (request.network !== undefined) {
        if (!isNetwork(request.network)) throw invalid('network must be "public" or "private"')
        claims.n = request.network
      }
      if (request.maxFileSize !== undefined) {
        if (!Number.isSafeInteger(request.maxFileSize) || request.maxFileSize < 0)
          throw invalid('max_file_size must be a non-negative integer of bytes')
        claims.m = request.maxFileSize
      }
      if (request.allowMimeTypes !== undefined) {
        const types = request.allowMimeTypes
        if (!Array.isArray(types) || types.length > MAX_MIME_TYPES || types.some((t) => typeof t !== 'string' || !t))
          throw invalid(`allow_mime_types must be an array of at most ${MAX_MIME_TYPES} MIME types`)
        if (types.length > 0) claims.a = [...types]
      }
      if (request.groupId !== undefined && request.groupId !== null && request.groupId !== '') {
        if (typeof request.groupId !== 'string') throw invalid('group_id must be a string')
        const networks: Network[] = claims.n ? [claims.n] : ['public', 'private']
        const found = await Promise.all(
          networks.map((n) => ctx.records.groups.getGroup(actor.tenantId, n, request.groupId!, options)),
        )
        if (!found.some(Boolean)) throw notFound('group')
        claims.g = request.groupId
      }
      if (request.keyvalues !== undefined && request.keyvalues !== null) {
        const keyvalues = validateKeyvalues(request.keyvalues)
        if (Object.keys(keyvalues).length > 0) claims.k = keyvalues
      }
      if (request.filename !== undefined && request.filename !== null && request.filename !== '') {
        claims.f = validateName(request.filename, 'filename')
      }
      const path = `/v3/files/${ctx.ids.recordId()}`
      const query = new URLSearchParams({
        'X-Algorithm': ALGORITHM,
        'X-Date': String(date),
        'X-Expires': String(expires),
        'X-Method': SIGNED_UPLOAD_METHODS,
        'X-User-ID': actor.userId,
        'X-Grant': Buffer.from(JSON.stringify(claims)).toString('base64url'),
      })
      query.set(SIGNATURE_PARAM, signing.sign(path, query))
      return { path, query }
    },

    verify(path, query) {
      const signing = signer() // first: with the feature off, every URL gets the same answer
      if (!query.has(SIGNATURE_PARAM)) throw new PinfoldError('UNAUTHENTICATED', 'this upload URL carries no signature')
      if (!signing.verify(path, query)) throw new PinfoldError('FORBIDDEN', 'the upload URL signature is invalid')
      const date = Number(query.get('X-Date'))
      const expires = Number(query.get('X-Expires'))
      const expiresAt = new Date((date + expires) * 1000)
      if (!(expiresAt.getTime() > ctx.clock.now().getTime()))
        throw new PinfoldError('FORBIDDEN', 'the upload URL has expired')
      let claims: GrantClaims
      try {
        claims = JSON.parse(Buffer.from(query.get('X-Grant') ?? '', 'base64url').toString('utf8'))
      } catch (cause) {
        throw new PinfoldError('INTERNAL', 'a validly signed upload URL holds an unreadable grant', { cause })
      }
      return {
        actor: { tenantId: claims.t, userId: claims.u },
        expiresAt,
        constraints: {
          maxBytes: claims.m,
          allowMimeTypes: claims.a,
          fixed: {
            ...(claims.n !== undefined && { network: claims.n }),
            ...(claims.f !== undefined && { name: claims.f }),
            ...(claims.g !== undefined && { groupId: claims.g }),
            ...(claims.k !== undefined && { keyvalues: claims.k }),
          },
        },
      }
    },
  }
}
