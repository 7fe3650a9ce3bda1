import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import AjvModule from 'ajv'
import addFormatsModule from 'ajv-formats'
import { load } from 'js-yaml'
import { expect } from 'vitest'

/**
 * The IPFS Pinning Service API's own OpenAPI file (ipfs/pinning-services-api-spec v1.0.0, frozen),
 * committed so tests and the compliance suite run offline, and a checker of real answers against it.
 */
export const PINNING_SERVICE_SPEC_PATH = fileURLToPath(
  new URL('../fixtures/ipfs-pinning-service.yaml', import.meta.url),
)

type ResponseDoc = { content?: Record<string, { schema: unknown }> }
type Spec = { paths: Record<string, Record<string, { responses: Record<string, ResponseDoc | { $ref: string }> }>> }

// CommonJS modules: their `default` is the export under Node's ESM loader and in the types alike
const Ajv = AjvModule.default
const addFormats = addFormatsModule.default

/**
 * Checks an answer of `method` on the spec's `path` (`/pins` or `/pins/{requestid}`): its status
 * must be one the spec documents for the operation (exactly or by range), and its JSON body must
 * validate against the spec’s schema for it (OpenAPI 3.0 schemas, which JSON Schema draft 7
 * reads as they are; `format`s checked). Answers the parsed body (`undefined` when there is none).
 */
export function createPinningServiceChecker() {
  const spec = load(readFileSync(PINNING_SERVICE_SPEC_PATH, 'utf8')) as Spec
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31 })
  ajv.addSchema(spec as object, 'spec')
  return async function check(method: string, path: '/pins' | '/pins/{requestid}', res: Response): Promise<unknown> {
    const responses = spec.paths[path]?.[method.toLowerCase()]?.responses
    expect(responses, `${method} ${path} is in the spec`).toBeDefined()
    const status = String(res.status)
    const key = [status, `${status[0]}XX`].find((k) => responses![k])
    expect(key, `${method} ${path}: the spec documents status ${status}`).toBeDefined()
    let doc = responses![key!]!
    let pointer = `#/paths/${path.replace(/\//g, '~1')}/${method.toLowerCase()}/responses/${key}`
    if ('$ref' in doc) {
      pointer = doc.$ref
      doc = (spec as unknown as { components: { responses: Record<string, ResponseDoc> } }).components.responses[
        doc.$ref.split('/').pop()!
      ]!
    }
    const text = await res.text()
    if (!doc.content) {
      expect(text, `${method} ${path} ${status} has no body in the spec`).toBe('')
      return undefined
    }
    expect(res.headers.get('content-type') ?? '', `${method} ${path} ${status}`).toMatch(/^application\/json/)
    const body = JSON.parse(text) as unknown
    const validate = ajv.getSchema(`spec${pointer}/content/application~1json/schema`)
    expect(validate, pointer).toBeDefined()
    expect(validate!(body), `${method} ${path} ${status}: ${JSON.stringify(validate!.errors)} in ${text}`).toBe(true)
    return body
  }
}
