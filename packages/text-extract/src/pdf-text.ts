import { PinfoldError } from '@pinfold/interface'
import { getDocumentProxy } from 'unpdf'
import { checkInflatedSize } from './pdf-inflated-size.js'

export interface PdfLimits {
  /** Pages read at most (the first ones). */
  maxPages: number
  /** Pages stop being read once this much text is gathered. */
  maxTextChars: number
  /** Bytes the PDF's deflated streams may inflate to; beyond, the PDF is refused. */
  maxInflatedBytes: number
}

/**
 * The text of a PDF's first `maxPages` pages, one page after another, via PDF.js (bundled by unpdf,
 * no browser or canvas needed). Scanned PDFs without a text layer yield nothing: there is no OCR.
 */
export async function pdfToText(bytes: Uint8Array, limits: PdfLimits): Promise<string> {
  checkInflatedSize(bytes, limits.maxInflatedBytes)
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>
  try {
    pdf = await getDocumentProxy(bytes)
  } catch (err) {
    throw new PinfoldError('INVALID_INPUT', `cannot extract text from PDF: ${(err as Error).message}`, { cause: err })
  }
  try {
    const pages: string[] = []
    let chars = 0
    for (let number = 1; number <= Math.min(pdf.numPages, limits.maxPages) && chars < limits.maxTextChars; number++) {
      const content = await (await pdf.getPage(number)).getTextContent()
      const page = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join('')
      pages.push(page)
      chars += page.length + 2
    }
    return pages.join('\n\n')
  } finally {
    await pdf.destroy()
  }
}
