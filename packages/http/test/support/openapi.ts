import { Validator } from '@seriousme/openapi-schema-validator'
import Ajv2020Module from 'ajv/dist/2020.js'
import addFormatsModule from 'ajv-formats'
import { expect } from 'vitest'
import { type OpenApiDocument, openApiPath } from '../../src/index.js'

// CommonJS modules: their `default` is the export under Node's ESM loader and in the types alike
const Ajv2020 = Ajv2020Module.default
const addFormats = addFormatsModule.default

type ResponseDoc = { description: string; content?: Record<string, unknown> }
type OperationDoc = { responses: Record<string, ResponseDoc> }

/** Validates a document against the official OpenAPI 3.1 schema (offline: the schemas ship in the package). */
export async function validateOpenApi(document: unknown) {
  return new Validator().validate(document as Parameters<Validator['validate']>[0])
}

const pointer = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1')

/**
 * Checks real responses against the document: the status must be documented for the operation
 * (exactly, by range `4XX`, or `default`), the content type must be one it lists, and a JSON body
 * must validate against the response schema (JSON Schema 2020-12, formats checked). Records every
 * `METHOD /route status` it validated.
 */
export function createResponseChecker(document: OpenApiDocument) {
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  addFormats(ajv)
  ajv.addSchema(document as object, 'openapi')
  const validated = new Set<string>()
  const compiled = new Map<string, ReturnType<typeof ajv.compile>>()

  async function check(route: string, res: Response): Promise<unknown> {
    const [method, path] = route.split(' ') as [string, string]
    const item = (document.paths as Record<string, Record<string, OperationDoc>>)[openApiPath(path)]
    const operation = item?.[method.toLowerCase()]
    expect(operation, `${route} is documented`).toBeDefined()
    const status = String(res.status)
    const key = [status, `${status[0]}XX`, 'default'].find((k) => operation!.responses[k])
    expect(key, `${route} documents status ${status}`).toBeDefined()
    const response = operation!.responses[key!]!
    const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim()
    let body: unknown
    if (response.content && method !== 'HEAD') {
      const media =
        Object.keys(response.content).find((k) => k === type) ?? (response.content['*/*'] ? '*/*' : undefined)
      expect(media, `${route} ${status}: content type ${type} is documented`).toBeDefined()
      if (media === 'application/json') {
        body = await res.json()
        const ref = `openapi#/paths/${pointer(openApiPath(path))}/${method.toLowerCase()}/responses/${key}/content/${pointer(media)}/schema`
        const validate = compiled.get(ref) ?? ajv.compile({ $ref: ref })
        compiled.set(ref, validate)
        const ok = validate(body)
        expect(ok, `${route} ${status}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(body)}`).toBe(true)
      } else {
        await res.arrayBuffer()
      }
    } else {
      expect(await res.text(), `${route} ${status} has no documented body`).toBe('')
    }
    validated.add(`${route} ${status}`)
    return body
  }

  return { check, validated }
}
