import { Marked } from 'marked'
import { htmlToText } from './html-text.js'

const marked = new Marked({ gfm: true })

/** Markdown's readable text: rendered to HTML by marked, then stripped, so `**`, `#` and link URLs go away. */
export function markdownToText(markdown: string): string {
  return htmlToText(marked.parse(markdown, { async: false }))
}
