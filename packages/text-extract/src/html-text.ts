import { Tokenizer } from 'htmlparser2'

// Elements whose content is code, styling or metadata rather than readable text.
const SKIPPED = new Set(['script', 'style', 'noscript', 'template', 'svg', 'math'])
// Elements with no end tag in HTML: they are closed as soon as they open.
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
])
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
 *
 * It reads htmlparser2's tokenizer, not its `Parser`: the Parser keeps open elements in an array it
 * `unshift`s, so every open tag costs as much as the nesting depth, and 1 MB of nested `<div>`s took
 * tens of seconds. Text needs no tree, only a count of the skipped elements we are inside, so this
 * stays linear in the input whatever its nesting.
 */
export function htmlToText(markup: string, xmlMode = false): string {
  const parts: string[] = []
  let skipDepth = 0
  let inHead = false
  let inTitle = false
  let openTag = ''
  const nameAt = (start: number, end: number) =>
    xmlMode ? markup.slice(start, end) : markup.slice(start, end).toLowerCase()
  const emit = (text: string) => {
    if ((skipDepth === 0 && !inHead) || inTitle) parts.push(text)
  }
  const open = (name: string) => {
    if (name === 'title') inTitle = true
    else if (name === 'head') inHead = true
    else if (name === 'body')
      inHead = false // `</head>` is optional: the body ends the head
    else if (SKIPPED.has(name)) skipDepth++
  }
  const close = (name: string) => {
    if (name === 'title') inTitle = false
    else if (name === 'head') inHead = false
    else if (SKIPPED.has(name)) skipDepth = Math.max(0, skipDepth - 1)
    if (BLOCKS.has(name) || xmlMode) parts.push('\n')
  }
  const tokenizer = new Tokenizer(
    { xmlMode, decodeEntities: true },
    {
      onopentagname(start, end) {
        openTag = nameAt(start, end)
        open(openTag)
      },
      onopentagend() {
        if (!xmlMode && VOID.has(openTag)) close(openTag)
      },
      onselfclosingtag() {
        // `<div/>` opens a div in HTML (as browsers read it); in XML it is an empty element
        if (xmlMode || VOID.has(openTag)) close(openTag)
      },
      onclosetag(start, end) {
        close(nameAt(start, end))
      },
      ontext(start, end) {
        emit(markup.slice(start, end))
      },
      ontextentity(codePoint) {
        emit(String.fromCodePoint(codePoint))
      },
      oncdata(start, end) {
        emit(markup.slice(start, end))
      },
      onattribdata() {},
      onattribentity() {},
      onattribend() {},
      onattribname() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onprocessinginstruction() {},
    },
  )
  tokenizer.write(markup)
  tokenizer.end()
  return parts.join('')
}
