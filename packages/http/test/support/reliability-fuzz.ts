import fc from 'fast-check'

/**
 * Arbitraries for fuzzing the HTTP API: path parameters, query strings, headers and bodies built
 * from what the routes read (so most inputs get past the first check) mixed with junk. Values
 * starting with `@` are placeholders the test resolves to live resources (a seeded file id, a fresh
 * tus session, a genuinely signed URL…).
 */

export const PLACEHOLDERS = [
  '@publicFileId',
  '@privateFileId',
  '@publicCid',
  '@privateCid',
  '@groupId',
  '@instructionId',
  '@domainId',
  '@pinRequestId',
  '@apiKey',
  '@network',
  '@tus',
  '@signedUpload',
  '@downloadLink',
] as const

export const NASTY = [
  'public',
  'private',
  '..',
  '.',
  '...',
  '%2e%2e',
  '..%2f..%2fetc%2fpasswd',
  '..%252f..%252f',
  '%00',
  '%zz',
  '%',
  'a%00b',
  'nul\u0000byte',
  'emoji 😀 \ud800 lone',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '9007199254740993',
  'bafy',
  'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
  'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy',
  'QmInvalidCidxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'QmYwAPJzv5CZsnA625s3Xf2nemtYgPpHdWEz79ojWnPbdG',
  'zb2rhe5P4gXftAwvA4eXQ5HJwsER2owDyS9sKaQRRVQPn93bA',
  'f01701220c3c4733ec8affd06cf9e9ff50ffc6bcd2ec85a6170004bb709669c31de94391a',
  '00000000-0000-0000-0000-000000000000',
  'ipfs',
  'sign',
  'signature',
  'swap',
  'ids',
  '<script>alert(1)</script>',
  "'; drop table files; --",
  '{"$ne":null}',
  '\\..\\..\\windows',
  'con',
] as const

const DIGITS = fc.oneof(
  fc.nat({ max: 10_000 }).map(String),
  fc.constantFrom('0', '1', '-5', '1.5', '99999999999999999999', ' 7 ', 'abc', ''),
)

/** Path parameter values; percent-encoding is applied when the path is built. */
export const paramValue = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...PLACEHOLDERS) },
  { weight: 3, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.integer({ min: 300, max: 20_000 }).map((n) => `@huge:${n}`) },
)

const QUERY_KEYS = [
  'limit',
  'pageToken',
  'name',
  'cid',
  'mimeType',
  'order',
  'sort',
  'group',
  'cidPending',
  'isPublic',
  'is_public',
  'keyvalues[env]',
  'metadata[k]',
  'keyvalues[]',
  'format',
  'dag-scope',
  'entity-bytes',
  'car-version',
  'filename',
  'download',
  'id',
  'domain',
  'X-Signature',
  'X-Expires',
  'X-Date',
  'X-Algorithm',
  'X-User-ID',
  'X-Method',
  'X-Upload-Option-Cid-Version',
  'random',
] as const

/** Page tokens shaped like the server's but holding times PostgreSQL cannot store (once a 500). */
const pageTokenValue = fc
  .tuple(
    fc.constantFrom('0000-01-01T00:00:00.000Z', '-100000-01-01T00:00:00.000Z', '+275760-09-13T00:00:00.000Z'),
    fc.constantFrom('00000000-0000-0000-0000-000000000000', 'x'),
  )
  .map((cursor) => Buffer.from(JSON.stringify(cursor)).toString('base64url'))

const queryValue = fc.oneof(
  fc.constantFrom(...NASTY),
  pageTokenValue,
  DIGITS,
  fc.string({ maxLength: 40 }),
  fc.constantFrom('ASC', 'DESC', 'raw', 'car', 'block', 'entity', 'all', '0:10', '-5:*', '10:2', 'v0', 'v1', 'null'),
)

export const query = fc.array(fc.tuple(fc.constantFrom(...QUERY_KEYS), queryValue), { maxLength: 5 })

/** What to do to a genuinely signed URL's query before sending it. */
export const tamper = fc.constantFrom('none', 'none', 'signature', 'expires', 'date', 'user', 'drop')

const base64Of = (arb: fc.Arbitrary<string>) => arb.map((s) => Buffer.from(s).toString('base64'))

const paymentHeader = fc.oneof(
  fc.base64String({ maxLength: 200 }),
  fc.string({ maxLength: 100 }),
  base64Of(fc.json({ maxDepth: 3 })),
  base64Of(
    fc
      .record(
        {
          x402Version: fc.oneof(fc.constantFrom(1, 2), fc.jsonValue()),
          scheme: fc.oneof(fc.constant('exact'), fc.string()),
          network: fc.constantFrom('base-sepolia', 'base', 'eip155:84532', 'nope'),
          payload: fc.oneof(
            fc.jsonValue(),
            fc.record({
              signature: fc.oneof(fc.constant(`0x${'ab'.repeat(65)}`), fc.string()),
              authorization: fc.dictionary(
                fc.constantFrom('from', 'to', 'value', 'validAfter', 'validBefore', 'nonce'),
                fc.oneof(fc.string(), fc.constant(`0x${'11'.repeat(20)}`), fc.constant(`0x${'00'.repeat(32)}`)),
              ),
            }),
          ),
          accepted: fc.jsonValue(),
        },
        { requiredKeys: [] },
      )
      .map((value) => JSON.stringify(value)),
  ),
  fc.constant('!!!not base64!!!'),
)

const uploadMetadata = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc
    .array(
      fc.tuple(
        fc.constantFrom('filename', 'filetype', 'name', 'network', 'keyvalues', 'group_id', 'cid_version', 'x'),
        fc.oneof(base64Of(fc.string({ maxLength: 40 })), base64Of(fc.json()), fc.constantFrom('!!', 'a b', '')),
      ),
      { maxLength: 4 },
    )
    .map((pairs) => pairs.map(([k, v]) => `${k} ${v}`).join(',')),
)

const HEADER_VALUES = {
  authorization: fc.constantFrom(
    '@valid',
    '@valid',
    '@valid',
    '@valid',
    '@valid',
    '@valid',
    '@respelled',
    '@none',
    '@readonly',
    '@other',
    'Bearer x.y.z',
    'Basic a',
  ),
  'content-type': fc.constantFrom(
    'application/json',
    'text/plain',
    'multipart/form-data',
    'multipart/form-data; boundary=',
    'multipart/form-data; boundary=zzz',
    'application/offset+octet-stream',
    'application/x-www-form-urlencoded',
    'image/png',
  ),
  'upload-length': DIGITS,
  'upload-offset': DIGITS,
  'upload-metadata': uploadMetadata,
  'upload-defer-length': fc.constant('1'),
  'tus-resumable': fc.constantFrom('1.0.0', '0.2.2', ''),
  'x-payment': paymentHeader,
  'payment-signature': paymentHeader,
  range: fc.constantFrom(
    'bytes=0-0',
    'bytes=-1',
    'bytes=5-2',
    'bytes=999999999-',
    'bytes=0-1,2-3',
    'bytes=',
    'items=0-1',
  ),
  'if-none-match': fc.constantFrom('*', '"x"', 'W/"y"', ''),
  accept: fc.constantFrom(
    'application/vnd.ipld.raw',
    'application/vnd.ipld.car',
    'application/vnd.ipld.car; version=2',
    '*/*',
    'text/html',
  ),
  source: fc.string({ maxLength: 20 }),
}

/** The Authorization header (placeholders: `@valid`, `@respelled`, `@readonly`, `@other`, `@none`) and up to four others. */
export const headers: fc.Arbitrary<Record<string, string>> = fc
  .tuple(
    HEADER_VALUES.authorization,
    fc.array(
      fc.oneof(
        ...Object.entries(HEADER_VALUES)
          .filter(([name]) => name !== 'authorization')
          .map(([name, value]) => ({
            weight: 4,
            arbitrary: (value as fc.Arbitrary<string>).map((v) => [name, v] as const),
          })),
        // an oversized header (Node refuses more than 16 KiB of headers with 431)
        { weight: 1, arbitrary: fc.integer({ min: 17_000, max: 40_000 }).map((n) => ['x-big', `@big:${n}`] as const) },
      ),
      { maxLength: 4 },
    ),
  )
  .map(([authorization, rest]) => ({ authorization, ...Object.fromEntries(rest) }))

const JSON_FIELDS = [
  'name',
  'keyvalues',
  'expires_at',
  'is_public',
  'network',
  'expires',
  'date',
  'url',
  'method',
  'max_file_size',
  'allow_mime_types',
  'group_id',
  'filename',
  'payment_requirements',
  'description',
  'signature',
  'address',
  'swap_cid',
  'swapCid',
  'text',
  'limit',
  'domain',
  '__proto__',
  'constructor',
] as const

const fieldValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...NASTY),
  fc.integer({ min: 1000, max: 10_000 }).map((n) => 'v'.repeat(n)),
  fc.dictionary(fc.string({ maxLength: 300 }), fc.oneof(fc.string({ maxLength: 3000 }), fc.jsonValue()), {
    maxKeys: 120,
  }),
)

const filename = fc.oneof(
  fc.constantFrom(
    '../../etc/passwd',
    'a/../../b.txt',
    '/absolute/path.txt',
    '..',
    '.',
    '',
    'dir/sub/x.txt',
    'dir//x',
    'C:\\windows\\x',
    'x'.repeat(5000),
    // folders deeper than the limit (64 levels); 2,500 levels once overflowed the importer's stack
    `${'d/'.repeat(2500)}deep.txt`,
    `${'d/'.repeat(64)}deep.txt`,
    `dir/${'n'.repeat(4100)}`,
    'index.html',
    '<img src=x onerror=alert(1)>.html',
  ),
  fc.string({ maxLength: 40 }),
)

const MULTIPART_FIELDS = [
  'network',
  'name',
  'group_id',
  'keyvalues',
  'cid_version',
  'expires_at',
  'car',
  'pinataMetadata',
  'pinataOptions',
  'streamable',
  'file',
  'x',
] as const

/**
 * File contents the server must refuse cleanly: a CAR whose first section declares 400 MiB (sent
 * with `car=true`, the import refuses it from the declared length) and an HTML page (passed off as
 * an allowed type on a signed URL, the sniffed bytes refuse it).
 */
const hostileFileBytes = fc.constantFrom(
  Buffer.from(
    '3aa265726f6f747381d82a582500015512204813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2' +
      '6776657273696f6e01808080c801015512204813494d137e1631bba301d5acab6e7bb7aa74ce1185d456565ef51d737677b2',
    'hex',
  ),
  Buffer.from('<html><script>alert(1)</script></html>'),
)

export type Part =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; type: string; bytes: Uint8Array }

const part: fc.Arbitrary<Part> = fc.oneof(
  fc.record({
    kind: fc.constant('field' as const),
    name: fc.oneof(fc.constantFrom(...MULTIPART_FIELDS), fc.string({ maxLength: 20 })),
    value: fc.oneof(fc.constantFrom(...NASTY), fc.json({ maxDepth: 2 }), fc.string({ maxLength: 80 })),
  }),
  fc.record({
    kind: fc.constant('file' as const),
    name: fc.oneof(fc.constant('file'), fc.constant('file'), fc.string({ maxLength: 10 })),
    filename,
    type: fc.constantFrom(
      'text/plain',
      'application/octet-stream',
      'application/vnd.ipld.car',
      'text/html',
      'image/png',
      '',
    ),
    bytes: fc.oneof(
      { weight: 4, arbitrary: fc.uint8Array({ maxLength: 2048 }) },
      { weight: 1, arbitrary: hostileFileBytes },
    ),
  }),
)

export type Body =
  | { kind: 'none' }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'multipart'; parts: Part[]; cut: number | null; boundary: string }
  | { kind: 'huge-json' }
  | { kind: 'deep-json' }
  | { kind: 'many-fields' }
  | { kind: 'huge-field' }

export const body: fc.Arbitrary<Body> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'none' as const }) },
  { weight: 2, arbitrary: fc.json({ maxDepth: 4 }).map((text) => ({ kind: 'text' as const, text })) },
  {
    weight: 4,
    arbitrary: fc
      .dictionary(fc.constantFrom(...JSON_FIELDS), fieldValue, { maxKeys: 6 })
      .map((value) => ({ kind: 'text' as const, text: JSON.stringify(value) })),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 4096 }).map((bytes) => ({ kind: 'bytes' as const, bytes })) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('multipart' as const),
      parts: fc.array(part, { maxLength: 5 }),
      cut: fc.option(fc.nat({ max: 3000 })),
      boundary: fc.constantFrom('pinfoldfuzzboundary', 'zzz', 'a'.repeat(71)),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<Body>(
      { kind: 'huge-json' },
      { kind: 'deep-json' },
      { kind: 'many-fields' },
      { kind: 'huge-field' },
    ),
  },
)

/** The bytes and natural Content-Type of a body. */
export function encodeBody(b: Body): { bytes: Uint8Array | string | undefined; type: string | undefined } {
  switch (b.kind) {
    case 'none':
      return { bytes: undefined, type: undefined }
    case 'text':
      return { bytes: b.text, type: 'application/json' }
    case 'bytes':
      return { bytes: b.bytes, type: 'application/octet-stream' }
    case 'huge-json':
      return { bytes: JSON.stringify({ name: 'n'.repeat(1024 * 1024 + 10) }), type: 'application/json' }
    case 'deep-json':
      return { bytes: `${'['.repeat(50_000)}${']'.repeat(50_000)}`, type: 'application/json' }
    case 'many-fields':
      return multipart(
        Array.from({ length: 250 }, (_, i) => ({ kind: 'field', name: `f${i}`, value: 'x' })),
        null,
        'pinfoldfuzzboundary',
      )
    case 'huge-field':
      return multipart([{ kind: 'field', name: 'keyvalues', value: 'k'.repeat(1024 * 1024 + 10) }], null, 'bnd')
    case 'multipart':
      return multipart(b.parts, b.cut, b.boundary)
  }
}

function multipart(parts: Part[], cut: number | null, boundary: string) {
  const chunks: Buffer[] = []
  const quote = (s: string) => s.replace(/["\r\n]/g, (c) => encodeURIComponent(c))
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n`))
    if (p.kind === 'field') {
      chunks.push(Buffer.from(`Content-Disposition: form-data; name="${quote(p.name)}"\r\n\r\n${p.value}\r\n`))
    } else {
      const type = p.type ? `Content-Type: ${p.type}\r\n` : ''
      chunks.push(
        Buffer.from(
          `Content-Disposition: form-data; name="${quote(p.name)}"; filename="${quote(p.filename)}"\r\n${type}\r\n`,
        ),
      )
      chunks.push(Buffer.from(p.bytes), Buffer.from('\r\n'))
    }
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`))
  let bytes: Uint8Array = Buffer.concat(chunks)
  if (cut !== null && cut < bytes.length) bytes = bytes.subarray(0, cut)
  return { bytes, type: `multipart/form-data; boundary=${boundary}` }
}
