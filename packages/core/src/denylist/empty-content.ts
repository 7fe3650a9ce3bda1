import { parseAnyCid } from './any-cid.js'
import { latin1 } from './ipns-name.js'

/**
 * Content that is never blocked, whatever a list says: the empty block, file and directory in the
 * usual codecs (NOpfs's test list names each). Blocking one would break every DAG that holds it,
 * and none of them can carry anything harmful.
 */
export const NEVER_BLOCKED: ReadonlySet<string> = new Set(
  [
    'QmUNLLsPACCz1vLxQVkXqqLX5R1X345qqfHbsf67hvA3Nn', // empty UnixFS directory
    'bafyaabakaieac', // the same, inlined (identity multihash)
    'bafkreihdwdcefgh4dqkjv67uzcmw7ojee6xedzdetojuzjevtenxquvyku', // empty raw block
    'bafkqaaa', // the same, inlined
    'QmbFMke1KXqnYyBBWxB74N4c5SBnJMVAiMNRcGu6x1AwQH', // empty dag-pb node
    'bafyreigbtj4x7ip5legnfznufuopl4sg4knzc2cof6duas4b3q2fy6swua', // empty dag-cbor map
    'baguqeeraiqjw7i2vwntyuekgvulpp2det2kpwt6cd7tx5ayqybqpmhfk76fa', // empty dag-json map
  ].map((cid) => latin1(parseAnyCid(cid).multihash.bytes)),
)
