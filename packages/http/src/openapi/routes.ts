import Type from 'typebox'
import { json } from '../responses.js'
import { defineRoute, type RequestContext } from '../router.js'
import { routes } from '../routes.js'
import { docsPagePolicy, renderDocsPage } from './docs-page.js'
import { buildOpenApiDocument } from './document.js'
import { jsonResponse } from './responses.js'

/** The document of the whole route table (read at request time: this module is part of that table). */
const documentFor = (publicUrl: string) => buildOpenApiDocument(routes, { serverUrl: publicUrl })

async function openApiJson({ publicUrl }: RequestContext) {
  return json(documentFor(publicUrl), 200, { 'cache-control': 'no-cache' })
}

async function docs({ publicUrl, docsScriptUrl }: RequestContext) {
  const page = { title: 'Pinfold', scriptUrl: docsScriptUrl, serverUrl: publicUrl }
  return new Response(renderDocsPage(page), {
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-cache',
      'content-security-policy': docsPagePolicy(page),
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
    },
  })
}

export const openApiRoutes = [
  defineRoute({
    method: 'GET',
    path: '/openapi.json',
    auth: 'public',
    summary: 'This OpenAPI 3.1 document',
    tags: ['Operations'],
    responses: {
      '200': jsonResponse(
        'The OpenAPI document',
        Type.Object({ openapi: Type.String(), paths: Type.Object({}) }, { additionalProperties: true }),
      ),
    },
    handle: openApiJson,
  }),
  defineRoute({
    method: 'GET',
    path: '/docs',
    auth: 'public',
    summary: 'API reference (HTML)',
    description:
      'An interactive reference of this document (Scalar), with a curl example and a "try it" per operation. Without a viewer configured (`docsScriptUrl`), a page pointing to `/openapi.json`.',
    tags: ['Operations'],
    responses: { '200': { description: 'HTML page', content: { 'text/html': { schema: Type.String() } } } },
    handle: docs,
  }),
]
