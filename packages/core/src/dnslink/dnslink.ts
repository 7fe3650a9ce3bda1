import type { Clock, TxtRecords, TxtResolver } from '@pinfold/interface'
import { PinfoldError } from '@pinfold/interface'
import { parseCid } from '../common/parse-cid.js'
import type { DnslinkOperations, DnslinkTarget } from './api.js'

export interface DnslinkSettings {
  resolveTxt?: TxtResolver | undefined
  clock: Clock
}

/** When the resolver reports no TTL, and how long "no record" is believed. */
const DEFAULT_TTL_SECONDS = 60
const MAX_TTL_SECONDS = 3600
/** Hosts remembered at once; the oldest answer is forgotten first. */
const MAX_CACHED_HOSTS = 10_000

/** The resolver's ways of saying "no such name" or "no TXT there": an answer, not a failure. */
const NO_RECORD_CODES = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN', 'ENONAME'])

interface Cached {
  target: DnslinkTarget | undefined
  expiresAt: number
}

export function createDnslinkOperations({ resolveTxt, clock }: DnslinkSettings): DnslinkOperations {
  const cache = new Map<string, Cached>()
  // one lookup per host at a time: a burst of requests for a cold host waits on the same answer
  const pending = new Map<string, Promise<DnslinkTarget | undefined>>()

  async function lookup(host: string): Promise<DnslinkTarget | undefined> {
    if (!resolveTxt) return undefined // without DNS, no host has a DNSLink
    let records: TxtRecords
    try {
      records = await resolveTxt(`_dnslink.${host}`)
    } catch (error) {
      if (!NO_RECORD_CODES.has(String((error as { code?: unknown }).code))) {
        throw new PinfoldError('UNAVAILABLE', `the DNS lookup of _dnslink.${host} failed`, { cause: error })
      }
      remember(host, undefined, DEFAULT_TTL_SECONDS)
      return undefined
    }
    const target = dnslinkTarget(records)
    const ttl = records.ttlSeconds ?? DEFAULT_TTL_SECONDS
    remember(host, target, target ? ttl : Math.min(ttl, DEFAULT_TTL_SECONDS))
    return target
  }

  function remember(host: string, target: DnslinkTarget | undefined, ttlSeconds: number) {
    const seconds = Math.min(Math.max(Math.floor(ttlSeconds), 1), MAX_TTL_SECONDS)
    cache.delete(host)
    if (cache.size >= MAX_CACHED_HOSTS) cache.delete(cache.keys().next().value!)
    cache.set(host, { target, expiresAt: clock.now().getTime() + seconds * 1000 })
  }

  return {
    async resolve(host) {
      const name = host.toLowerCase().replace(/\.$/, '')
      const cached = cache.get(name)
      if (cached && cached.expiresAt > clock.now().getTime()) return cached.target
      const inFlight = pending.get(name)
      if (inFlight) return inFlight
      const asked = lookup(name).finally(() => pending.delete(name))
      pending.set(name, asked)
      return asked
    },
  }
}

/**
 * The `/ipfs/` target of a TXT answer: records are joined from their character-strings, those
 * that are not `dnslink=/ipfs/{valid cid}[/path]` are ignored, and of the rest the first in sorted
 * order wins.
 */
export function dnslinkTarget(records: readonly string[][]): DnslinkTarget | undefined {
  const values = records
    .map((strings) => strings.join('').trim())
    .filter((value) => value.startsWith('dnslink=/ipfs/'))
    .map((value) => value.slice('dnslink='.length))
    .sort()
  for (const value of values) {
    const [cid, ...path] = value.split('/').slice(2)
    try {
      parseCid(cid ?? '')
    } catch {
      continue
    }
    return { cid: cid!, path: path.filter((segment) => segment !== '') }
  }
  return undefined
}
