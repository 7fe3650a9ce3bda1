/**
 * The `/docs` page: a shell for Scalar's API reference viewer (`@scalar/api-reference`'s browser
 * bundle, which the host application serves: this package reads no files). The page names the
 * viewer and the OpenAPI document relatively, so it works under any base path or proxy prefix, and
 * carries the viewer's configuration in attributes, as no inline script runs under its policy.
 */

export interface DocsPageOptions {
  title: string
  /** The viewer's script: relative to the page or absolute; undefined gives the page without one. */
  scriptUrl: string | undefined
  /** The API's public base URL: the viewer's "try it" sends requests there. */
  serverUrl: string
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)

/**
 * What the viewer may do: run its own script and styles (it injects its CSS at run time), show
 * inline images, and talk to this API only. Nothing is fetched from elsewhere.
 */
export function docsPagePolicy({ scriptUrl, serverUrl }: Pick<DocsPageOptions, 'scriptUrl' | 'serverUrl'>): string {
  const scriptOrigin = scriptUrl && /^https?:/i.test(scriptUrl) ? ` ${new URL(scriptUrl).origin}` : ''
  const apiOrigin = new URL(serverUrl).origin
  return [
    "default-src 'none'",
    `script-src 'self'${scriptOrigin}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${apiOrigin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * Scalar's light theme with its greys and method colours darkened to WCAG AA contrast (4.5:1) on
 * its backgrounds; the theme's own rules come after custom CSS, hence the doubled class. The code
 * examples' dark cards (`.dark-mode` inside the page) keep the dark theme's colours, but for its red
 * (DELETE), 3.9:1 on their #1a1a1a: lightened to 6:1.
 */
const READABLE_COLOURS = `.light-mode.light-mode {
  --scalar-color-2: #575757;
  --scalar-color-3: #5e5e5e;
  --scalar-color-accent: #0060a8;
  --scalar-color-blue: #0060a8;
  --scalar-color-green: #0a7438;
  --scalar-color-orange: #a34a00;
  --scalar-color-red: #c0000a;
  --scalar-color-yellow: #735600;
  --scalar-color-purple: #5203d1;
  --scalar-color-query: #006166;
}
.light-mode.light-mode .dark-mode {
  --scalar-color-red: #ff6b6b;
}`

// Scalar's options: no web fonts, telemetry, AI agent, MCP link, link to Scalar's hosted client,
// developer toolbar or request proxy (its "try it" calls the document's server, this API,
// straight from the browser); the document's bearer scheme is the one offered for a token, kept
// for the tab only; the light theme only, with readable colours.
const VIEWER_CONFIGURATION = {
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  showDeveloperTools: 'never',
  hideClientButton: true,
  persistAuth: false,
  authentication: { preferredSecurityScheme: 'bearer' },
  forceDarkModeState: 'light',
  hideDarkModeToggle: true,
  customCss: READABLE_COLOURS,
}

export function renderDocsPage({ title, scriptUrl }: Omit<DocsPageOptions, 'serverUrl'>): string {
  const head = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
`
  if (!scriptUrl) {
    return `${head}<main style="font:16px/1.5 system-ui,sans-serif;color:#1d2430;background:#fff;max-width:42rem;margin:2rem auto;padding:0 1rem">
<h1>${escapeHtml(title)} API reference</h1>
<p>The OpenAPI 3.1 document of this API is at <a href="openapi.json" style="color:#0b5cad">openapi.json</a>: open it in any OpenAPI viewer or client generator.</p>
<p>To show the reference here, serve the browser bundle of <code>@scalar/api-reference</code>
(<code>dist/browser/standalone.js</code>) from your application and pass its URL to
<code>createFetchHandler</code> as <code>docsScriptUrl</code>, as <code>pinfold serve</code> does.</p>
</main>
</body>
</html>
`
  }
  const configuration = escapeHtml(JSON.stringify(VIEWER_CONFIGURATION))
  return `${head}<noscript><p>The API reference needs JavaScript. The OpenAPI document is at <a href="openapi.json">openapi.json</a>.</p></noscript>
<script id="api-reference" type="application/json" data-url="openapi.json" data-configuration="${configuration}"></script>
<script src="${escapeHtml(scriptUrl)}"></script>
</body>
</html>
`
}
