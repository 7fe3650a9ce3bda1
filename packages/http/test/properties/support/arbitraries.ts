import { chacha } from '@pinfold/testing/gateway'
import fc from 'fast-check'

/**
 * Generators of what the round-trip properties upload. They produce small descriptions (sizes,
 * names, content seeds), never bytes, so a counterexample prints in a few lines; `materialize`
 * turns a description into bytes deterministically.
 */

/**
 * Characters of file and directory names: ASCII, spaces, characters a URL must escape, and
 * non-ASCII of every UTF-8 length. Left out on purpose: `/` and `\` (separators), control
 * characters (refused), and `"`, which FormData sends as `%22` (a server cannot tell it apart).
 */
const NAME_CHARS = [...'abcxyzABZ019-_.~', ' ', ..."%#?&+=;,@!$()[]'", ...'éüßñΩж中文ｱ', '🌍', '😀']

/** One path segment: 1–12 of those characters, never `.` or `..`. */
export const segment = fc
  .string({ unit: fc.constantFrom(...NAME_CHARS), minLength: 1, maxLength: 12 })
  .filter((s) => s !== '.' && s !== '..')

/** Directory names that recur, so generated trees share directories. */
const SHARED_DIRECTORIES = ['docs', 'a b', 'café', '日本 🌍']

/**
 * A file size around the profile's chunk: tiny; exactly 0, 1, chunk − 1, chunk, chunk + 1; or
 * several leaves (up to `maxBytes`) at a leaf boundary ± 1 or anywhere inside a leaf.
 */
function fileSize(chunk: number, maxBytes: number): fc.Arbitrary<number> {
  const maxLeaves = Math.max(2, Math.floor(maxBytes / chunk))
  return fc.oneof(
    { weight: 3, arbitrary: fc.nat(4096) },
    { weight: 3, arbitrary: fc.constantFrom(0, 1, chunk - 1, chunk, chunk + 1) },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.integer({ min: 2, max: maxLeaves }), fc.oneof(fc.integer({ min: -1, max: 1 }), fc.nat(chunk - 1)))
        .map(([leaves, offset]) => Math.min(leaves * chunk + offset, maxBytes)),
    },
  )
}

/**
 * A file's content: `size` bytes of the ChaCha20 stream of `seed` (0–3). Files that share a
 * seed share a prefix, hence leaves: the DAG must dedupe those blocks.
 */
export interface FileCase {
  size: number
  seed: number
}

const fileCase = (chunk: number, maxBytes: number): fc.Arbitrary<FileCase> =>
  fc.record({ size: fileSize(chunk, maxBytes), seed: fc.nat(3) })

export interface FolderCase {
  top: string
  /** Paths below `top`; at least one file. */
  files: (FileCase & { path: string })[]
}

/**
 * A folder: 1–30 files at depth ≤ 4 below the top directory (up to three directories, then the
 * file), whose sizes add up to at most `budget` bytes.
 */
function folderCase(chunk: number, budget: number): fc.Arbitrary<FolderCase> {
  const entry = fc.record({
    dirs: fc.array(fc.oneof(fc.constantFrom(...SHARED_DIRECTORIES), segment), { maxLength: 3 }),
    name: segment,
    file: fileCase(chunk, budget),
  })
  return fc
    .record({ top: segment, entries: fc.array(entry, { minLength: 1, maxLength: 30, size: 'max' }) })
    .map(({ top, entries }) => ({ top, files: tree(entries, budget) }))
}

/**
 * Keeps the entries that make a valid tree (no path twice, no path both a file and a directory);
 * the first always survives. A file that would pass the budget keeps its place with a small size.
 */
function tree(entries: { dirs: string[]; name: string; file: FileCase }[], budget: number) {
  const files: FolderCase['files'] = []
  const taken = new Set<string>()
  const directories = new Set<string>()
  let total = 0
  for (const { dirs, name, file } of entries) {
    const path = [...dirs, name].join('/')
    const parents = dirs.map((_, i) => dirs.slice(0, i + 1).join('/'))
    if (taken.has(path) || directories.has(path) || parents.some((p) => taken.has(p))) continue
    const size = total + file.size > budget ? file.size % 4096 : file.size
    total += size
    taken.add(path)
    for (const parent of parents) directories.add(parent)
    files.push({ path, size, seed: file.seed })
  }
  return files
}

/** How a file is read back with `Range`: `bytes=a-b`, `bytes=a-` or `bytes=-n`, placed by two numbers. */
export interface RangeCase {
  form: 'closed' | 'open' | 'suffix'
  start: number
  length: number
}

export const rangeCase: fc.Arbitrary<RangeCase> = fc.record({
  form: fc.constantFrom('closed', 'open', 'suffix'),
  start: fc.nat(),
  length: fc.nat(),
})

/** The header and the inclusive byte span a {@link RangeCase} asks of a file of `size` > 0 bytes. */
export function rangeOf({ form, start, length }: RangeCase, size: number) {
  const from = start % size
  if (form === 'suffix') {
    const count = 1 + (length % size)
    return { header: `bytes=-${count}`, from: size - count, to: size - 1 }
  }
  if (form === 'open') return { header: `bytes=${from}-`, from, to: size - 1 }
  const to = from + (length % (size - from))
  return { header: `bytes=${from}-${to}`, from, to }
}

/**
 * The bytes of a generated file. `salt` names the upload path, profile and run, so two
 * properties never upload the same bytes (the second would be a stored duplicate, proving
 * nothing about its own path).
 */
export const fileBytes = (salt: string, file: FileCase) => chacha(`${salt}/${file.seed}`, file.size)

/** A number that tells runs apart in the salt of {@link fileBytes}; printed with a counterexample. */
export const nonce = fc.nat()

/** What one upload carries: a file with its name, or a folder. */
export type UploadInput = { kind: 'file'; name: string; file: FileCase } | { kind: 'folder'; folder: FolderCase }

/** Single files go up to several MiB; a folder's files share a smaller budget (a folder costs a request per file). */
const MAX_FILE_BYTES = 4 * 1024 * 1024
const MAX_FOLDER_BYTES = 2 * 1024 * 1024

/**
 * A file with its name, or a folder. With `multiBlock`, a file spans 2–3 leaves, so its DAG has
 * blocks besides the root (a folder always has).
 */
export function uploadInput(
  kind: UploadInput['kind'],
  chunk: number,
  { multiBlock = false } = {},
): fc.Arbitrary<UploadInput> {
  if (kind === 'folder') return folderCase(chunk, MAX_FOLDER_BYTES).map((folder) => ({ kind, folder }))
  const file = multiBlock
    ? fc.record({ size: fc.integer({ min: chunk + 1, max: 3 * chunk }), seed: fc.nat(3) })
    : fileCase(chunk, MAX_FILE_BYTES)
  return fc.record({ name: segment, file }).map(({ name, file }) => ({ kind, name, file }))
}
