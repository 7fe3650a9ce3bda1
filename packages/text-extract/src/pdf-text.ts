import { PinfoldError } from '@pinfold/core'
import { getDocumentProxy } from 'unpdf'

/**
 * The text of a PDF's first `maxPages` pages, one page after another, via PDF.js (bundled by unpdf,
 * no browser or canvas needed). Scanned PDFs without a text layer yield nothing: there is no OCR.
 */
export async function pdfToText(bytes: Uint8Array, maxPages: number): Promise<string> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>
  try {
    pdf = await getDocumentProxy(bytes)
  } catch (err) {
    throw new PinfoldError('INVALID_INPUT', `cannot extract text from PDF: ${(err as Error).message}`, { cause: err })
  }
  try {
    const pages: string[] = []
    for (let number = 1; number <= Math.min(pdf.numPages, maxPages); number++) {
      const content = await (await pdf.getPage(number)).getTextContent()
      pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join(''))
    }
    return pages.join('\n\n')
  } finally {
    await pdf.destroy()
  }
}
