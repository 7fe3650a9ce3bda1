import { Parser } from 'htmlparser2'

// Elements whose content is code, styling or metadata rather than readable text.
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math', 'head'])
// Elements that end a line when rendered; without a break there, "Title" + "First line" would fuse.
const BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'br',
  'dd',
  'div',
  'dl',
  'dt',
  'figcaption',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'table',
  'td',
  'th',
  'title',
  'tr',
  'ul',
])

/**
 * Readable text of an HTML (or, with `xmlMode`, XML) document: tags dropped, entities decoded,
 * scripts and styles skipped, a line break after each block. `<title>` is kept although it lives in
 * `<head>`, because it often names the page's subject best.
 */
export function htmlToText(markup: string, xmlMode = false): string {
  const parts: string[] = []
  let skipDepth = 0
  let inTitle = false
  const parser = new Parser(
    {
      onopentag(name) {
        if (name === 'title') inTitle = true
        else if (SKIPPED.has(name)) skipDepth++
      },
      ontext(text) {
        if (skipDepth === 0 || inTitle) parts.push(text)
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false
        else if (SKIPPED.has(name)) skipDepth = Math.max(0, skipDepth - 1)
        if (BLOCKS.has(name) || xmlMode) parts.push('\n')
      },
    },
    { decodeEntities: true, xmlMode, lowerCaseTags: !xmlMode },
  )
  parser.write(markup)
  parser.end()
  return parts.join('')
}
