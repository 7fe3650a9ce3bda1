import type { Actor, FileRecord } from '@pinfold/interface'
import { invalid, notFound, PinfoldError } from '@pinfold/interface'
import { createUrlSigner, SIGNATURE_PARAM } from '../auth/url-signing.js'
import type { ServiceContext } from './context.js'
import { heldCids } from './held-cids.js'

/** Longest validity a download link may have: one year. */
export const MAX_LINK_SECONDS = 365 * 24 * 3600

export const DOWNLOAD_LINK_ALGORITHM = 'PINFOLD1-HMAC-SHA256'

export interface DownloadLinkRequest {
  /** Any URL whose path holds `/files/<cid>` (or `/ipfs/<cid>`); its host is ignored. */
  url?: unknown
  /** Seconds the link stays valid after `date`. */
  expires?: unknown
  /** Unix seconds the validity starts at; default now. */
  date?: unknown
  /** Only `GET` can be signed. */
  method?: unknown
}

/**
 * Private download links: `<base>/files/<cid>?X-Algorithm&X-Date&X-Expires&X-Method=GET&X-User-ID&X-Signature`.
 * The HMAC (see `createUrlSigner`, purpose `download`) covers the path and every parameter,
 * including `X-User-ID` — the tenant — so a link proves which tenant's file it opens.
 */
export function createDownloadLinkOperations(ctx: ServiceContext) {
  const signer = () => {
    return createUrlSigner(ctx.features.require('downloadLinks').signingSecret, 'download')
  }

  const held = heldCids(ctx)
  /** The tenant's file for a CID, private network first. */
  async function heldFile(tenantId: string, cidText: string): Promise<FileRecord | undefined> {
    return (await held.find(tenantId, 'private', cidText)) ?? (await held.find(tenantId, 'public', cidText))
  }

  return {
    /** Signs a link to one of the actor's files; `baseUrl` is the API's public URL. */
    async create(actor: Actor, request: DownloadLinkRequest, baseUrl: string): Promise<string> {
      const signing = signer() // first: with the feature off, no file is looked up for nothing
      if (typeof request.url !== 'string') throw invalid('url must be a string')
      const match = /\/(?:files|ipfs)\/([^/?#]+)/.exec(request.url)
      if (!match) throw invalid('url must contain /files/<cid>')
      const method = request.method ?? 'GET'
      if (typeof method !== 'string' || method.toUpperCase() !== 'GET') throw invalid('method must be GET')
      const expires = toInteger(request.expires, 'expires')
      if (expires < 1 || expires > MAX_LINK_SECONDS) throw invalid(`expires must be 1 to ${MAX_LINK_SECONDS} seconds`)
      const nowSeconds = Math.floor(ctx.clock.now().getTime() / 1000)
      const date = request.date === undefined || request.date === null ? nowSeconds : toInteger(request.date, 'date')
      // a link may not start in the future (that would stretch its life beyond `expires`)
      if (date > nowSeconds + 300) throw invalid('date must not be in the future')
      const file = await heldFile(actor.tenantId, decodeURIComponent(match[1]!))
      if (!file) throw notFound('file')
      const path = `/files/${file.cid}`
      const params = new URLSearchParams({
        'X-Algorithm': DOWNLOAD_LINK_ALGORITHM,
        'X-Date': String(date),
        'X-Expires': String(expires),
        'X-Method': 'GET',
        'X-User-ID': actor.tenantId,
      })
      params.set(SIGNATURE_PARAM, signing.sign(path, params))
      return `${baseUrl.replace(/\/+$/, '')}${path}?${params}`
    },

    /**
     * Checks a link for `/files/<cid>` and returns the tenant's file it opens, with the moment
     * the link stops being valid. `FORBIDDEN` for a tampered, expired or malformed link;
     * `NOT_FOUND` when the file is gone.
     */
    async open(cidText: string, params: URLSearchParams): Promise<{ file: FileRecord; expiresAt: Date }> {
      const signing = signer() // first: with the feature off, every link gets the same answer
      const path = `/files/${cidText}`
      const refuse = (why: string) => new PinfoldError('FORBIDDEN', `invalid download link: ${why}`)
      if (!params.has(SIGNATURE_PARAM)) throw refuse('it is not signed')
      if (!signing.verify(path, params)) throw refuse('the signature does not match')
      const tenantId = params.get('X-User-ID')
      const date = Number(params.get('X-Date'))
      const expires = Number(params.get('X-Expires'))
      if (
        params.get('X-Method') !== 'GET' ||
        !tenantId ||
        !Number.isSafeInteger(date) ||
        !Number.isSafeInteger(expires)
      ) {
        throw refuse('it is malformed')
      }
      const expiresAt = new Date((date + expires) * 1000)
      if (ctx.clock.now().getTime() >= expiresAt.getTime()) throw refuse('it has expired')
      const file = await heldFile(tenantId, cidText)
      if (!file) throw notFound('file')
      return { file, expiresAt }
    },
  }
}

function toInteger(value: unknown, field: string): number {
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) throw invalid(`${field} must be an integer`)
  return number
}
