import type { OpenApiDocument } from './document.js'
import type { JsonSchema, OpenApiParameter, OpenApiResponse } from './types.js'

interface Operation {
  operationId: string
  summary: string
  description: string
  tags: string[]
  'x-pinfold-auth': string
  parameters?: OpenApiParameter[]
  requestBody?: { description?: string; content: Record<string, { schema: JsonSchema }> }
  responses: Record<string, OpenApiResponse>
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/** `code` spans of the descriptions, after escaping. */
const prose = (text: string) => escapeHtml(text).replace(/`([^`]+)`/g, '<code>$1</code>')

/** A compact, readable rendering of a schema: `$ref`s become links to the schema section. */
function schemaHtml(schema: JsonSchema): string {
  const json = JSON.stringify(schema, null, 2)
  return `<pre>${escapeHtml(json).replace(
    /&quot;#\/components\/schemas\/([A-Za-z0-9]+)&quot;/g,
    '<a href="#schema-$1">$1</a>',
  )}</pre>`
}

/**
 * The API reference served at `/docs`: plain HTML generated from the OpenAPI document, with no
 * script and nothing fetched from elsewhere, so it works on machines without internet access.
 */
export function renderDocsHtml(document: OpenApiDocument): string {
  const byTag = new Map<string, { method: string; path: string; op: Operation }[]>()
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, value] of Object.entries(item)) {
      const op = value as Operation
      const tag = op.tags[0] ?? 'API'
      const list = byTag.get(tag) ?? []
      list.push({ method, path, op })
      byTag.set(tag, list)
    }
  }
  const tags = [...byTag.keys()].sort()
  const nav = tags.map((tag) => `<li><a href="#tag-${slug(tag)}">${escapeHtml(tag)}</a></li>`).join('')
  const sections = tags
    .map((tag) => {
      const ops = byTag
        .get(tag)!
        .map(({ method, path, op }) => operationHtml(method, path, op))
        .join('\n')
      return `<section id="tag-${slug(tag)}"><h2>${escapeHtml(tag)}</h2>${ops}</section>`
    })
    .join('\n')
  const schemas = Object.entries(document.components.schemas)
    .map(([name, schema]) => `<div class="schema" id="schema-${name}"><h3>${name}</h3>${schemaHtml(schema)}</div>`)
    .join('\n')
  const server = document.servers?.[0]?.url
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(document.info.title)} API reference</title>
<style>
body{font:15px/1.5 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:#1d2430;background:#fafbfc}
header{background:#1d2430;color:#fff;padding:1.2rem 2rem}header a{color:#9cc3ff}
main{display:flex;gap:2rem;padding:0 2rem}nav{position:sticky;top:0;align-self:flex-start;min-width:12rem;padding-top:1rem}
nav ul{list-style:none;padding:0}nav a{color:#1d2430;text-decoration:none}article{flex:1;min-width:0}
.op{background:#fff;border:1px solid #dde2ea;border-radius:6px;margin:1rem 0;padding:.8rem 1rem}
.op summary{cursor:pointer;font-family:ui-monospace,monospace}.m{display:inline-block;min-width:4.5rem;font-weight:700}
.get{color:#0a7d38}.post{color:#0b5cad}.put,.patch{color:#a35f00}.delete{color:#b3261e}.head{color:#5d3fa7}
pre{background:#f3f5f8;padding:.6rem;overflow:auto;font-size:13px;border-radius:4px}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #eef0f4;text-align:left;padding:.25rem .5rem;vertical-align:top}
code{background:#f3f5f8;padding:0 .2rem;border-radius:3px}.auth{color:#5a6578;font-size:13px}
</style>
</head>
<body>
<header><h1>${escapeHtml(document.info.title)} <small>${escapeHtml(document.info.version)}</small></h1>
<p>${prose(document.info.summary)}${server ? ` — base URL <code>${escapeHtml(server)}</code>` : ''}. Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI ${escapeHtml(document.openapi)}).</p></header>
<main><nav><ul>${nav}<li><a href="#schemas">Schemas</a></li></ul></nav>
<article>${sections}
<section id="schemas"><h2>Schemas</h2>${schemas}</section></article></main>
</body>
</html>
`
}

function operationHtml(method: string, path: string, op: Operation): string {
  const params = op.parameters?.length
    ? `<h4>Parameters</h4><table><tr><th>Name</th><th>In</th><th>Schema</th><th></th></tr>${op.parameters
        .map(
          (p) =>
            `<tr><td><code>${escapeHtml(p.name)}</code>${p.required ? ' *' : ''}</td><td>${p.in}</td><td>${schemaHtml(p.schema)}</td><td>${prose(p.description ?? '')}</td></tr>`,
        )
        .join('')}</table>`
    : ''
  const body = op.requestBody
    ? `<h4>Request body</h4>${Object.entries(op.requestBody.content)
        .map(([type, media]) => `<p><code>${escapeHtml(type)}</code></p>${schemaHtml(media.schema)}`)
        .join('')}`
    : ''
  const responses = Object.entries(op.responses)
    .map(([status, response]) => {
      const content = Object.entries(response.content ?? {})
        .map(([type, media]) => `<p><code>${escapeHtml(type)}</code></p>${schemaHtml(media.schema)}`)
        .join('')
      return `<tr><td><b>${escapeHtml(status)}</b></td><td>${prose(response.description)}${content}</td></tr>`
    })
    .join('')
  return `<details class="op" id="${escapeHtml(op.operationId)}"><summary><span class="m ${method}">${method.toUpperCase()}</span> ${escapeHtml(path)} — ${escapeHtml(op.summary)}</summary>
<p>${prose(op.description).replace(/\n\n/g, '</p><p>')}</p>${params}${body}<h4>Responses</h4><table>${responses}</table></details>`
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-')
