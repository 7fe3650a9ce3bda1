import { invalid } from '@pinfold/core'

export const RAW = 'application/vnd.ipld.raw'
export const CAR = 'application/vnd.ipld.car'
/** The CAR variants the gateway writes: depth-first, each block once (`dups=n`) or as often as met. */
export const carContentType = (dups: boolean) => `${CAR}; version=1; order=dfs; dups=${dups ? 'y' : 'n'}`

/**
 * What a gateway request asks for, whether the choice came from `Accept` alone, and for CARs
 * whether `Accept` asked for duplicates (`dups=y`).
 */
export type Negotiated = { format: GatewayFormat | undefined; fromAccept: boolean; dups: boolean }

/** A block's own bytes under an IPLD data codec's type (`codec-formats.ts`). */
export type CodecFormat = 'dag-json' | 'dag-cbor' | 'json' | 'cbor'
export type GatewayFormat = 'raw' | 'car' | 'tar' | CodecFormat

const FORMATS: ReadonlySet<string> = new Set<GatewayFormat>([
  'raw',
  'car',
  'tar',
  'dag-json',
  'dag-cbor',
  'json',
  'cbor',
])

/**
 * The explicit types `Accept` may ask for besides raw and CAR. `application/json` and
 * `application/cbor` are not here: a browser or API client sends them for a file too, so they
 * only choose the plain type for a block that is JSON or CBOR (`codec-formats.ts`).
 */
const ACCEPTED: Readonly<Record<string, GatewayFormat>> = {
  'application/x-tar': 'tar',
  'application/vnd.ipld.dag-json': 'dag-json',
  'application/vnd.ipld.dag-cbor': 'dag-cbor',
}

interface MediaRange {
  type: string
  params: Map<string, string>
  q: number
}

/**
 * The response format: `?format=` wins over `Accept` (trustless gateway spec); `undefined` is a
 * deserialized response. `Accept` is read with q-values (RFC 9110 §12.5.1): the best acceptable
 * range wins, `q=0` refuses a type, a type outside the IPLD family (`text/html`, `*∕*`) means
 * the deserialized response. When every range is refused or names an IPLD type or CAR variant
 * the gateway cannot produce (a CARv2, `vnd.ipfs.ipns-record`…), the answer is `'not-acceptable'`.
 */
export function negotiateFormat(accept: string | null, format: string | null): Negotiated | 'not-acceptable' {
  const ranges = parseAccept(accept ?? '')
  if (format !== null && format !== '') {
    // `?format=car` picks the format; a CAR range in Accept may still say how (its `dups`)
    if (format === 'car') return { format, fromAccept: false, dups: acceptedCarDups(ranges) }
    if (FORMATS.has(format)) return { format: format as GatewayFormat, fromAccept: false, dups: false }
    throw invalid(`format must be one of ${[...FORMATS].join(', ')}`)
  }
  if (ranges.length === 0) return { format: undefined, fromAccept: false, dups: false }
  // stable: of equal weight, the first listed wins
  const acceptable = ranges.filter((range) => range.q > 0).sort((a, b) => b.q - a.q)
  for (const range of acceptable) {
    if (range.type === RAW) return { format: 'raw', fromAccept: true, dups: false }
    const accepted = ACCEPTED[range.type]
    if (accepted) return { format: accepted, fromAccept: true, dups: false }
    if (range.type === CAR) {
      if (carVariantSupported(range.params)) {
        return { format: 'car', fromAccept: true, dups: range.params.get('dups') === 'y' }
      }
      continue
    }
    if (!isIpldFamily(range.type)) return { format: undefined, fromAccept: false, dups: false }
  }
  return 'not-acceptable'
}

/** Whether the first acceptable CAR range of `Accept` that the gateway can honour asks for `dups=y`. */
function acceptedCarDups(ranges: readonly MediaRange[]): boolean {
  const car = ranges.find((range) => range.q > 0 && range.type === CAR && carVariantSupported(range.params))
  return car?.params.get('dups') === 'y'
}

/**
 * The `car-version`, `car-order` and `car-dups` query parameters, which win over `Accept`'s (the
 * `Accept` range chosen by {@link negotiateFormat} is already one the gateway can honour). Values
 * it cannot honour are `INVALID_INPUT`. Answers whether duplicates are sent.
 */
export function carDups(query: URLSearchParams, negotiated: Negotiated): boolean {
  const version = query.get('car-version')
  if (version !== null && version !== '1') throw invalid('only CAR version 1 is supported')
  const order = query.get('car-order')
  if (order !== null && order !== 'dfs' && order !== 'unk') throw invalid('car-order must be dfs or unk')
  const dups = query.get('car-dups')
  if (dups !== null && dups !== 'y' && dups !== 'n') throw invalid('car-dups must be y or n')
  return dups === null ? negotiated.dups : dups === 'y'
}

/** Order `dfs` or `unk` (we send dfs, which satisfies both), version 1, duplicates either way. */
function carVariantSupported(params: Map<string, string>): boolean {
  const version = params.get('version')
  const order = params.get('order')
  const dups = params.get('dups')
  return (
    (version === undefined || version === '1') &&
    (order === undefined || order === 'dfs' || order === 'unk') &&
    (dups === undefined || dups === 'n' || dups === 'y')
  )
}

function isIpldFamily(type: string): boolean {
  return type.startsWith('application/vnd.ipld.') || type.startsWith('application/vnd.ipfs.')
}

/** `type/sub; p=v; q=0.5, …` → ranges with lower-cased types and parameters; junk ranges dropped. */
function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = []
  for (const part of header.split(',')) {
    const [rawType, ...rawParams] = part.split(';')
    const type = rawType?.trim().toLowerCase() ?? ''
    if (!/^[a-z0-9!#$&^_.+*-]+\/[a-z0-9!#$&^_.+*-]+$/.test(type)) continue
    const params = new Map<string, string>()
    for (const param of rawParams) {
      const eq = param.indexOf('=')
      if (eq < 0) continue
      params.set(
        param.slice(0, eq).trim().toLowerCase(),
        param
          .slice(eq + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1')
          .toLowerCase(),
      )
    }
    const q = params.has('q') ? Number(params.get('q')) : 1
    params.delete('q')
    ranges.push({ type, params, q: Number.isFinite(q) ? Math.min(Math.max(q, 0), 1) : 0 })
  }
  return ranges
}
