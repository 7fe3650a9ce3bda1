import type { CallOptions, FileRecord } from '@pinfold/interface'
import { invalid, notFound, PinfoldError } from '@pinfold/interface'
import { CID } from 'multiformats/cid'
import { createUrlSigner, SIGNATURE_PARAM } from '../auth/url-signing.js'
import { heldCids } from '../common/held-cids.js'
import { checkFileBlocks } from '../denylist/file-blocks.js'
import type { ServiceContext } from '../service/context.js'
import type { DownloadLinkOperations } from './api.js'

/** What the download link operations use of the service. */
export type DownloadLinkSettings = Pick<ServiceContext, 'records' | 'blobs' | 'clock' | 'features' | 'deny'>

/** Longest validity a download link may have: one year. */
export const MAX_LINK_SECONDS = 365 * 24 * 3600

export const DOWNLOAD_LINK_ALGORITHM = 'PINFOLD1-HMAC-SHA256'

/** Longest validity of a presigned blob-store URL: it cannot be revoked, whatever the link's own life. */
const MAX_PRESIGN_SECONDS = 3600

/**
 * Private download links: `<base>/files/<cid>?X-Algorithm&X-Date&X-Expires&X-Method=GET&X-User-ID&X-Signature`.
 * The HMAC (see `createUrlSigner`, purpose `download`) covers the path and every parameter,
 * including `X-User-ID` — the tenant — so a link proves which tenant's file it opens.
 */
export function createDownloadLinkOperations(ctx: DownloadLinkSettings): DownloadLinkOperations {
  const signer = ctx.features.derive('downloadLinks', ({ signingSecret }) => createUrlSigner(signingSecret, 'download'))
  // a blob store's ability to presign is settled at construction, like the features
  const presignGet = ctx.blobs.presignGet?.bind(ctx.blobs)

  const held = heldCids(ctx)
  /** The tenant's file for a CID, private network first. */
  async function heldFile(tenantId: string, cidText: string, options?: CallOptions): Promise<FileRecord | undefined> {
    return (
      (await held.find(tenantId, 'private', cidText, options)) ??
      (await held.find(tenantId, 'public', cidText, options))
    )
  }

  /**
   * Where a link is served: the API (`baseUrl`) for its own hosts and for a url without one, else
   * the tenant's own active gateway on the host the url names; any other host is refused.
   */
  async function linkBase(
    tenantId: string,
    target: LinkTarget,
    baseUrl: string,
    options: (CallOptions & { ownHostnames?: readonly string[] | undefined }) | undefined,
  ): Promise<string> {
    const { origin } = target
    if (!origin) return baseUrl
    const own = [new URL(baseUrl).hostname, ...(options?.ownHostnames ?? [])].map((host) => host.toLowerCase())
    if (own.includes(origin.hostname)) return baseUrl
    const domain = await ctx.records.gateway.findDomain(origin.hostname, ctx.clock.now(), options)
    if (domain?.status !== 'active' || domain.tenantId !== tenantId) {
      throw invalid(
        `${origin.hostname} is not one of this account's gateways: claim it (POST /v3/gateways/domains) or leave gateway out`,
      )
    }
    return `${origin.protocol}//${origin.host}`
  }

  return {
    async create(actor, request, baseUrl, options) {
      const sign = signer() // first: with the feature off, no file is looked up for nothing
      if (typeof request.url !== 'string') throw invalid('url must be a string')
      const target = parseLinkUrl(request.url)
      const method = request.method ?? 'GET'
      if (typeof method !== 'string' || method.toUpperCase() !== 'GET') throw invalid('method must be GET')
      const expires = toInteger(request.expires, 'expires')
      if (expires < 1 || expires > MAX_LINK_SECONDS) throw invalid(`expires must be 1 to ${MAX_LINK_SECONDS} seconds`)
      const nowSeconds = Math.floor(ctx.clock.now().getTime() / 1000)
      const date = request.date === undefined || request.date === null ? nowSeconds : toInteger(request.date, 'date')
      // a link may not start in the future (that would stretch its life beyond `expires`)
      if (date > nowSeconds + 300) throw invalid('date must not be in the future')
      const base = await linkBase(actor.tenantId, target, baseUrl, options)
      const file = await heldFile(actor.tenantId, target.cid, options)
      if (!file) throw notFound('file')
      const path = `/files/${file.cid}`
      const params = new URLSearchParams([
        ...target.signedParams,
        ['X-Algorithm', DOWNLOAD_LINK_ALGORITHM],
        ['X-Date', String(date)],
        ['X-Expires', String(expires)],
        ['X-Method', 'GET'],
        ['X-User-ID', actor.tenantId],
      ])
      params.set(SIGNATURE_PARAM, sign.sign(path, params))
      return `${base.replace(/\/+$/, '')}${path}?${params}`
    },

    async open(cidText, params, options) {
      const verifier = signer() // first: with the feature off, every link gets the same answer
      const path = `/files/${cidText}`
      const refuse = (why: string) => new PinfoldError('FORBIDDEN', `invalid download link: ${why}`)
      if (!params.has(SIGNATURE_PARAM)) throw refuse('it is not signed')
      if (!verifier.verify(path, params)) throw refuse('the signature does not match')
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
      const file = await heldFile(tenantId, cidText, options)
      if (!file) throw notFound('file')
      return { file, expiresAt }
    },

    async presign({ file, expiresAt }, options = {}) {
      if (!presignGet) return undefined
      const { signal, contentDisposition } = options
      const content = await ctx.records.files.getContent(file.cid, { signal })
      if (!content) throw notFound('content')
      if (content.kind !== 'file') return undefined
      // the redirect hands out the whole blob: every block of the file is checked first
      if (ctx.deny.privateReads && ctx.deny.active) {
        const deny = (cid: CID) => ctx.deny.enforceCid(cid, 'download')
        await checkFileBlocks(deny, ctx.blobs, content, CID.parse(content.cid), { signal })
      }
      const secondsLeft = Math.max(1, Math.floor((expiresAt.getTime() - ctx.clock.now().getTime()) / 1000))
      return presignGet(content.blobKey, {
        expiresInSeconds: Math.min(secondsLeft, MAX_PRESIGN_SECONDS),
        contentType: file.mimeType,
        contentDisposition,
        signal,
      })
    },
  }
}

interface LinkTarget {
  cid: string
  /** The host the url names, if it names one. */
  origin?: { protocol: string; host: string; hostname: string } | undefined
  /** Its `img-*` query parameters and a `format=car`, in order: signed into the link. */
  signedParams: [string, string][]
}

/**
 * The CID, host, image options and CAR format of the url a link is asked for: `https://host/files/<cid>?img-…`
 * as the SDK builds it, a path alone, or the SDK's `undefined/files/<cid>` when no gateway is
 * configured. The SDK prefixes `https://` to whatever gateway it is given, so `https://http://…`
 * is read as the `http://…` it stands for.
 */
function parseLinkUrl(text: string): LinkTarget {
  const unprefixed = text.replace(/^https:\/\/(?=https?:\/\/)/i, '')
  const match = /\/(?:files|ipfs)\/([^/?#]+)/.exec(unprefixed)
  if (!match) throw invalid('url must contain /files/<cid>')
  const query = unprefixed.includes('?') ? unprefixed.slice(unprefixed.indexOf('?') + 1).split('#')[0]! : ''
  // `format=car`: the blocks instead of the bytes, for a client that checks them (`pinfold get`)
  const signedParams = [...new URLSearchParams(query)].filter(
    ([name, value]) => name.startsWith('img-') || (name === 'format' && value === 'car'),
  )
  let cid: string
  try {
    cid = decodeURIComponent(match[1]!)
  } catch {
    throw invalid('url has malformed percent-encoding')
  }
  if (!/^https?:\/\//i.test(unprefixed)) return { cid, signedParams }
  let url: URL
  try {
    url = new URL(unprefixed)
  } catch {
    throw invalid('url must be an absolute http(s) URL or a path')
  }
  const origin = { protocol: url.protocol, host: url.host.toLowerCase(), hostname: url.hostname.toLowerCase() }
  return { cid, origin, signedParams }
}

function toInteger(value: unknown, field: string): number {
  const number = typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value) : value
  if (typeof number !== 'number' || !Number.isSafeInteger(number)) throw invalid(`${field} must be an integer`)
  return number
}
