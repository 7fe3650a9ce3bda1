import { createHash } from 'node:crypto'
import { BLOB_KEY_PATTERN, PinfoldError } from '@pinfold/interface'

/**
 * How a key maps to a file under `blobs/`, and back (so `list` can recover keys from names alone).
 *
 * - `<shard>/`: the first two hex digits of sha256(key); 256 directories keep any one of them small.
 * - The key becomes one file name, never a directory tree, so keys `a` and `a/b` cannot collide:
 *   `/` is written `~`, and an upper-case letter `X` is written `^x` so that case-insensitive
 *   filesystems (macOS, Windows) keep `A` and `a` apart. Keys never contain `~` or `^`.
 * - Names are cut into segments of {@link SEGMENT_CHARS} characters because a 512-character key can
 *   exceed the 255-byte name limit. Every segment but the last is a directory ending in `+`; the last
 *   is the file and ends in `.blob`. The two suffixes keep a directory name from ever equalling a
 *   file name, and `.blob` keeps the key `.` from becoming the name `.`.
 */
const SEGMENT_CHARS = 200
const DIRECTORY_SUFFIX = '+'
const FILE_SUFFIX = '.blob'

/** The path segments (relative to `blobs/`) of the file that holds `key`. */
export function blobSegments(key: string): string[] {
  if (!BLOB_KEY_PATTERN.test(key)) {
    throw new PinfoldError('INVALID_INPUT', `@pinfold/adapter-fs: invalid blob key ${JSON.stringify(key)}`)
  }
  const name = key.replace(/[A-Z]/g, (c) => `^${c.toLowerCase()}`).replaceAll('/', '~')
  const segments = [shardOf(key)]
  let at = 0
  for (; name.length - at > SEGMENT_CHARS; at += SEGMENT_CHARS) {
    segments.push(name.slice(at, at + SEGMENT_CHARS) + DIRECTORY_SUFFIX)
  }
  segments.push(name.slice(at) + FILE_SUFFIX)
  return segments
}

/**
 * The key stored at `segments` (shard first), or `undefined` for a path this scheme would not have
 * written (a stray file someone dropped in): decoding must round-trip, or `list` would report keys
 * that `get` cannot find.
 */
export function keyFromSegments(segments: readonly string[]): string | undefined {
  const file = segments.at(-1)
  if (segments.length < 2 || !file?.endsWith(FILE_SUFFIX)) return undefined
  const name = segments
    .slice(1, -1)
    .map((directory) => directory.slice(0, -DIRECTORY_SUFFIX.length))
    .concat(file.slice(0, -FILE_SUFFIX.length))
    .join('')
  const key = name.replaceAll('~', '/').replace(/\^([a-z])/g, (_, c: string) => c.toUpperCase())
  if (!BLOB_KEY_PATTERN.test(key)) return undefined
  return blobSegments(key).join('/') === segments.join('/') ? key : undefined
}

/** Whether `segment` is one of the directories a long key is split into (see above). */
export function isKeyDirectory(segment: string): boolean {
  return segment.endsWith(DIRECTORY_SUFFIX)
}

function shardOf(key: string): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 2)
}
