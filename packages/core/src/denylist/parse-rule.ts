import { base58btc } from 'multiformats/bases/base58'
import * as Digest from 'multiformats/hashes/digest'
import { parseAnyCid } from './any-cid.js'
import { latin1, normalizeIpnsName } from './ipns-name.js'
import { pathSpecOf } from './path-spec.js'
import type { DenyRule, RuleTarget } from './rule.js'
import { isSupportedHash } from './rule-hashes.js'

/** Lines longer than this are skipped, as the format allows (2 MiB). */
export const MAX_LINE_LENGTH = 2 * 1024 * 1024

const NO_HINTS: Readonly<Record<string, string>> = Object.freeze({})
const LEGACY_HEX = /^[0-9a-f]{64}$/i

/**
 * One line of a deny list: `undefined` for a blank line or a `#` comment, a rule, or a thrown
 * `Error` whose message says what is wrong with the line (the caller adds list and line number).
 */
export function parseRuleLine(line: string): DenyRule | undefined {
  const text = line.trim()
  if (text === '' || text.startsWith('#')) return undefined
  if (text.length > MAX_LINE_LENGTH) throw new Error(`a line is at most ${MAX_LINE_LENGTH} bytes`)
  const [first = '', ...rest] = text.split(/\s+/)
  const allow = first.startsWith('!')
  const rule = allow ? first.slice(1) : first
  return { text: first, allow, target: targetOf(rule), hints: hintsOf(rest) }
}

function targetOf(rule: string): RuleTarget {
  if (rule.startsWith('//')) return doubleHashOf(rule.slice(2))
  if (rule.startsWith('/ipfs/')) {
    const [cidText = '', path] = splitFirst(rule.slice('/ipfs/'.length))
    let multihash: Uint8Array
    try {
      multihash = parseAnyCid(cidText).multihash.bytes
    } catch {
      throw new Error(`${JSON.stringify(cidText.slice(0, 100))} is not a CID`)
    }
    return { kind: 'ipfs', key: latin1(multihash), path: pathSpecOf(path) }
  }
  if (rule.startsWith('/ipns/')) {
    const [name = '', path] = splitFirst(rule.slice('/ipns/'.length))
    if (name === '') throw new Error('an /ipns/ rule needs a name')
    return { kind: 'ipns', key: normalizeIpnsName(name).key, path: pathSpecOf(path) }
  }
  throw new Error('a rule starts with /ipfs/, /ipns/, // or !')
}

function doubleHashOf(hash: string): RuleTarget {
  if (LEGACY_HEX.test(hash)) {
    return { kind: 'double-hash', form: 'legacy', code: 0x12, key: Buffer.from(hash, 'hex').toString('latin1') }
  }
  let digest: Digest.Digest<number, number>
  try {
    digest = Digest.decode(base58btc.baseDecode(hash))
  } catch {
    throw new Error('a double-hashed rule is a base58btc multihash or 64 hex digits (sha256)')
  }
  if (!isSupportedHash(digest.code)) {
    throw new Error(`hash function 0x${digest.code.toString(16)} is not supported for double-hashed rules`)
  }
  return { kind: 'double-hash', form: 'modern', code: digest.code, key: latin1(digest.digest) }
}

/** `cid/rest/of/path` → `['cid', 'rest/of/path']`. */
function splitFirst(text: string): [string, string] {
  const slash = text.indexOf('/')
  return slash < 0 ? [text, ''] : [text.slice(0, slash), text.slice(slash + 1)]
}

function hintsOf(words: string[]): Readonly<Record<string, string>> {
  if (words.length === 0) return NO_HINTS
  const hints: Record<string, string> = {}
  for (const word of words) {
    const colon = word.indexOf(':')
    if (colon <= 0) throw new Error(`a hint is key:value, not ${JSON.stringify(word.slice(0, 100))}`)
    hints[word.slice(0, colon)] = word.slice(colon + 1)
  }
  return hints
}
