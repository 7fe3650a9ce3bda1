import { parseAnyCid } from './any-cid.js'

/**
 * Content that is never blocked, whatever a list says: the empty block, file and directory in the
 * usual codecs (NOpfs's test list names each). Blocking one would break every DAG that holds it,
 * and none of them can carry anything harmful.
 */
const NEVER_BLOCKED: readonly Uint8Array[] = [
  'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn', // empty UnixFS directory
  'bafyaabakaieac', // the same, inlined (identity multihash)
  'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku', // empty raw block
  'bafkqaaa', // the same, inlined
  'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH', // empty dag-pb node
  'bafyreigbtj4x7ip5legnfznufuopl4sg4knzc2cof6duas4b3q2fy6swua', // empty dag-cbor map
  'baguqeeraiqjw7i2vwntyuekgvulpp2det2kpwt6cd7tx5ayqybqpmhfk76fa', // empty dag-json map
].map((cid) => parseAnyCid(cid).multihash.bytes)

/** Whether a CID of this multihash is never blocked (compared as bytes: a lookup makes no string for it). */
export function isNeverBlocked(multihash: Uint8Array): boolean {
  for (const empty of NEVER_BLOCKED) if (sameBytes(empty, multihash)) return true
  return false
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  // from the end: a digest's last bytes differ at once, its first ones (the code, the length) rarely
  for (let i = a.length - 1; i >= 0; i--) if (a[i] !== b[i]) return false
  return true
}
