import Type, { type TSchema } from 'typebox'
import { errorResponse } from '../openapi/responses.js'
import type { OpenApiResponse } from '../openapi/types.js'

/**
 * The gateway's request and response schemas, as `/openapi.json` publishes them. Every query
 * parameter is a plain string to the request check: the gateway reads them itself, in the
 * spec's order and by the format negotiated (`dag-scope` means something only for a CAR, and a
 * `download` other than `true` is no error), so a stricter schema would refuse what it serves.
 */

const text = (description: string) => Type.Optional(Type.String({ description }))

const contentQuery = {
  format: text(
    '`raw` (the block), `car`, `tar` (a file or directory tree), `dag-json`, `dag-cbor`, `json` or `cbor` (a block of that codec as it is: no conversions, 406 otherwise); wins over `Accept` (trustless and path gateway specs)',
  ),
  'dag-scope': text('With a CAR: `block`, `entity` or `all` (default)'),
  'entity-bytes': text('With a CAR: `from:to`, byte offsets of the entity (negative from the end, `*` for its end)'),
  'car-version': text('With a CAR: `1`, the only version written'),
  'car-order': text('With a CAR: `dfs` or `unk`'),
  'car-dups': text('With a CAR: `y` or `n`, whether a block met again is sent again'),
  filename: text('The file name given in `Content-Disposition`'),
  download: text('`true`: served as an attachment'),
}

/** `optimizeImage()`'s parameters, on tenants' gateways and private links with image optimisation. */
const imageQuery = {
  'img-width': text('Width in pixels'),
  'img-height': text('Height in pixels'),
  'img-dpr': text('Device pixel ratio, up to 4, multiplying the size'),
  'img-fit': text('`scaleDown` (default), `contain`, `cover`, `crop` or `pad`'),
  'img-gravity': text('`auto`, a side, or a focal point `XxY` (0–1 each)'),
  'img-quality': text('1 to 100'),
  'img-format': text('`auto` (AVIF or WebP by `Accept`), `webp`, `avif`, `jpeg` or `png`'),
  'img-anim': text('`false`: the first frame of an animation only'),
  'img-sharpen': text('0 to 10'),
  'img-metadata': text('`keep`, `copyright` or `none`'),
  'img-onerror': text('`redirect`, accepted without effect'),
}

/** What `/ipfs/{cid}[/path]` reads; image parameters only matter on a tenant's gateway. */
export const PathGatewayQuery = Type.Object({
  ...contentQuery,
  ...imageQuery,
  uri: text(
    'On `/ipfs/` alone: `ipfs://{cid}[/path]` (a registered protocol handler), answered 301 to its content path',
  ),
})

/** What the subdomain gateway reads: no image parameters there. */
export const SubdomainGatewayQuery = Type.Object(contentQuery)

export const contentPath = (description: string) => ({ path: Type.String({ description }) })

const bytes = (description: string, type: string): OpenApiResponse => ({
  description,
  content: { [type]: { schema: Type.String({ contentMediaType: type }) as TSchema } },
})

/** The answers of a gateway path, beside the `{error}` of every failure. */
export const gatewayResponses: Record<string, OpenApiResponse> = {
  '200': {
    description:
      "The file (its own type, from its name or bytes), a directory's `index.html` or listing, a raw block, a CAR, a tar, or a dag-json, dag-cbor, json or cbor block (as itself, or an HTML preview for `Accept: text/html`)",
    content: {
      '*/*': { schema: Type.String({ contentMediaType: 'application/octet-stream' }) },
      'text/html': { schema: Type.String() },
      'application/vnd.ipld.raw': { schema: Type.String({ contentMediaType: 'application/vnd.ipld.raw' }) },
      'application/vnd.ipld.car': { schema: Type.String({ contentMediaType: 'application/vnd.ipld.car' }) },
      'application/x-tar': { schema: Type.String({ contentMediaType: 'application/x-tar' }) },
      'application/vnd.ipld.dag-json': { schema: Type.String({ contentMediaType: 'application/vnd.ipld.dag-json' }) },
      'application/vnd.ipld.dag-cbor': { schema: Type.String({ contentMediaType: 'application/vnd.ipld.dag-cbor' }) },
      'application/json': { schema: Type.String({ contentMediaType: 'application/json' }) },
      'application/cbor': { schema: Type.String({ contentMediaType: 'application/cbor' }) },
    },
  },
  '206': bytes('The range asked for (`Range`) of a file or raw block', 'application/octet-stream'),
  '301': {
    description:
      "A directory asked for without its trailing slash: the same path with one; on the subdomain gateway's own host, `{cidv1}.ipfs.{host}`; `/ipfs/?uri=ipfs://…`: its content path",
  },
  '304': { description: 'Not modified (`If-None-Match`)' },
  '400': errorResponse(
    'No CID, a malformed one (`invalid path "/ipfs/…"`), a CID too long for a DNS label where a subdomain is needed, a path of more than 64 segments, or a parameter out of range',
  ),
  '404': errorResponse('Not held by this gateway, or no such path in it'),
  '405': errorResponse('Any method but GET and HEAD'),
  '406': errorResponse(
    'No type in `Accept` that the gateway can serve, or a codec format the block is not of (`format=dag-json` on a dag-cbor block…)',
  ),
  '412': errorResponse('Not held here, asked with `Cache-Control: only-if-cached`'),
  '501': errorResponse('A path that ends inside a dag-json or dag-cbor block at a value that is not a link'),
}
