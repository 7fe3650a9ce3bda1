import { buildOpenApiDocument } from '../openapi/document.js'
import { renderDocsHtml } from '../openapi/html.js'
import { jsonResponse } from '../openapi/schemas.js'
import { json } from '../responses.js'
import type { RequestContext, Route } from '../router.js'
import { routes } from '../routes.js'

/** The document of the whole route table (read at request time: this module is part of that table). */
const documentFor = (publicUrl: string) => buildOpenApiDocument(routes, { serverUrl: publicUrl })

async function openApiJson({ publicUrl }: RequestContext) {
  return json(documentFor(publicUrl), 200, { 'cache-control': 'no-cache' })
}

async function docs({ publicUrl }: RequestContext) {
  return new Response(renderDocsHtml(documentFor(publicUrl)), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      // the page is static: no script, styles inline
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    },
  })
}

export const openApiRoutes: Route[] = [
  {
    method: 'GET',
    path: '/openapi.json',
    auth: 'public',
    summary: 'This OpenAPI 3.1 document',
    openapi: {
      tags: ['Operations'],
      responses: { '200': jsonResponse('The OpenAPI document', { type: 'object', required: ['openapi', 'paths'] }) },
    },
    handle: openApiJson,
  },
  {
    method: 'GET',
    path: '/docs',
    auth: 'public',
    summary: 'API reference (HTML)',
    openapi: {
      tags: ['Operations'],
      responses: { '200': { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } } },
    },
    handle: docs,
  },
]
