import type { MultibaseDecoder } from 'multiformats/bases/interface'
import { bases } from 'multiformats/basics'
import { CID } from 'multiformats/cid'

/**
 * Every multibase multiformats knows, picked by prefix: deny lists and IPNS names write CIDs in
 * base16 (`f…`), base36 (`k…`) and others that `CID.parse`'s default (base58btc, base32) does not
 * read.
 */
const byPrefix = new Map<string, MultibaseDecoder<string>>(
  Object.values(bases).map((base) => [base.prefix, base.decoder]),
)
const anyBase: MultibaseDecoder<string> = {
  decode(text) {
    const decoder = byPrefix.get(String.fromCodePoint(text.codePointAt(0) ?? 0))
    if (!decoder) throw new Error(`no multibase has the prefix of ${JSON.stringify(text.slice(0, 2))}`)
    return decoder.decode(text)
  },
}

/** The CID written in `text`, in any multibase (CIDv0 included); throws when it is not one. */
export function parseAnyCid(text: string): CID {
  return text.startsWith('Q') || text.startsWith('1') ? CID.parse(text) : CID.parse(text, anyBase)
}
