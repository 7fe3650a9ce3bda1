import { invalid } from '@pinfold/interface'
import { CID } from 'multiformats/cid'

/** Parses a CID from a URL or body; anything else is `INVALID_INPUT`. */
export function parseCid(text: string): CID {
  try {
    return CID.parse(text)
  } catch {
    throw invalid(`${JSON.stringify(text.slice(0, 100))} is not a valid CID`)
  }
}
