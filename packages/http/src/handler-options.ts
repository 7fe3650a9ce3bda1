import { type FileService, isPinfoldError, optionChecks, PinfoldError } from '@pinfold/core'
import type { FetchHandlerOptions } from './fetch-handler.js'

/** `publicUrl` as the handler uses it: without trailing slashes, and its host name. */
export interface PublicUrl {
  href: string
  hostname: string
}

export interface CheckedHandlerOptions {
  basePath: string
  /**
   * The current `publicUrl`, checked. A plain value is checked once, here at construction; a getter
   * (a server that learns its own port only after listening) is read and checked here too, and again
   * on each request — the last value checked is remembered, so an unchanged one costs a comparison.
   * A bad value a getter returns later is the host application's bug: `INTERNAL`, never a 400.
   */
  publicUrl(): PublicUrl | undefined
  subdomainHost: string | undefined
}

const check = optionChecks('@pinfold/http', 'createFetchHandler')

/**
 * The service and every `createFetchHandler` option checked at construction: a bad one fails
 * start-up, not requests.
 */
export function checkHandlerOptions(service: FileService, options: FetchHandlerOptions): CheckedHandlerOptions {
  const isService = typeof service?.files?.upload === 'function' && typeof service.health?.check === 'function'
  check.require('service', isService, 'must be a FileService (createFileService)')
  check.require('auth', typeof options?.auth?.verify === 'function', 'must be a token verifier (createTokenVerifier)')
  if (options.basePath !== undefined) {
    check.require('basePath', typeof options.basePath === 'string' && !/[?#]/.test(options.basePath), 'must be a path')
  }
  check.optionalFunction('onError', options.onError)
  check.optionalFunction('clientIp', options.clientIp)
  check.optionalFunction('ipfsPeer', options.ipfsPeer)
  const origins = options.cors?.origins
  if (origins !== undefined) {
    // a single origin given as a string would be matched as a substring of the request's origin
    const valid = origins === '*' || origins === false || (Array.isArray(origins) && origins.every(isOrigin))
    check.require('cors.origins', valid, "must be '*', false or a list of origins such as https://app.example.com")
  }
  if (options.logger !== undefined) {
    const logger = options.logger
    const methods = typeof logger?.info === 'function' && typeof logger.error === 'function'
    check.require('logger', methods, 'must have info() and error() methods (jsonLinesLogger)')
  }
  if (options.observer !== undefined) {
    const o = options.observer
    const methods = ['answered', 'gatewayStarted', 'uploaded'].every(
      (name) => typeof o?.[name as keyof typeof o] === 'function',
    )
    check.require(
      'observer',
      methods,
      'must have answered(), gatewayStarted() and uploaded() methods (an HttpObserver)',
    )
  }
  if (options.images !== undefined) {
    const { transformer, cacheBytes } = options.images ?? {}
    const ok = typeof transformer?.transform === 'function' && typeof transformer.limits?.maxDimension === 'number'
    check.require('images.transformer', ok, 'must be an ImageTransformer (createSharpTransformer)')
    if (cacheBytes !== undefined) {
      check.require('images.cacheBytes', Number.isSafeInteger(cacheBytes) && cacheBytes >= 0, 'must be an integer ≥ 0')
    }
  }
  for (const [name, value] of Object.entries(options.answerCache ?? {})) {
    const integer = Number.isSafeInteger(value) && (value as number) >= 0
    check.require(`answerCache.${name}`, integer, 'must be an integer ≥ 0')
  }
  if (options.docsScriptUrl !== undefined) {
    const url = options.docsScriptUrl
    const valid = typeof url === 'string' && url !== '' && URL.canParse(url, 'http://x/docs') && !/["<>\s]/.test(url)
    check.require('docsScriptUrl', valid, 'must be a URL, absolute or relative to /docs')
  }
  const subdomainHost = check.optionalHostname('subdomainHost', options.subdomainHost)?.toLowerCase()

  const gatewayDomain = service.domains.gatewayDomain
  let last: { given: unknown; checked: PublicUrl | undefined } | undefined
  const publicUrl = () => {
    const given = options.publicUrl
    if (!last || last.given !== given) last = { given, checked: checkPublicUrl(given, gatewayDomain) }
    return last.checked
  }
  publicUrl()
  return { basePath: normaliseBasePath(options.basePath), publicUrl: () => afterStart(publicUrl), subdomainHost }
}

/** `scheme://host[:port]`, as browsers send it in `Origin`. */
function isOrigin(value: unknown): boolean {
  return typeof value === 'string' && URL.canParse(value) && new URL(value).origin === value
}

function checkPublicUrl(value: unknown, gatewayDomain: string | undefined): PublicUrl | undefined {
  const url = check.optionalHttpUrl('publicUrl', value)
  if (!url) return undefined
  // links are built by appending paths: a query or fragment would end up in the middle of them
  check.require('publicUrl', url.search === '' && url.hash === '', 'must have no query or fragment')
  // every host under the gateway domain is a dedicated gateway (dispatchGateway): the API would
  // answer nowhere, and its host name would be a name any tenant could claim
  const underGateways = gatewayDomain !== undefined && url.hostname.toLowerCase().endsWith(`.${gatewayDomain}`)
  check.require(
    'publicUrl',
    !underGateways,
    `must not be a host under the service's gatewayDomain (${gatewayDomain}): every such host is a dedicated gateway`,
  )
  return { href: String(value).replace(/\/+$/, ''), hostname: url.hostname }
}

function afterStart<T>(read: () => T): T {
  try {
    return read()
  } catch (error) {
    if (!isPinfoldError(error)) throw error
    throw new PinfoldError('INTERNAL', error.message, { cause: error })
  }
}

function normaliseBasePath(basePath: string | undefined): string {
  if (!basePath || basePath === '/') return ''
  return `/${basePath.replace(/^\/+|\/+$/g, '')}`
}
