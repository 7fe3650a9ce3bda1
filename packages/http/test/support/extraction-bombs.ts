import { deflateSync } from 'node:zlib'

/** Files built to be slow or huge to extract: each one stalled the whole server when parsed on its main thread. */
export const extractionBombs = {
  /** 1.1 MB of `<div>`s nested 100,000 deep around one sentence (48 s to extract, quadratic in depth). */
  nestedHtml: (depth = 100_000) => `${'<div>'.repeat(depth)}Deep inside the markup.${'</div>'.repeat(depth)}`,

  /** `[[[…]]]` nested 100,000 deep around one string (a recursive walk overflows the stack). */
  nestedJson: (depth = 100_000) => `${'['.repeat(depth)}"Deep inside the arrays."${']'.repeat(depth)}`,

  /**
   * A one-page PDF whose content stream, about 100 KB deflated, inflates to `inflatedMiB` MiB of
   * drawing operators (60 MiB kept PDF.js busy for 17 s). The cross-reference table is left out:
   * PDF.js rebuilds it, as it does for many PDFs found in the wild.
   */
  inflatingPdf(inflatedMiB = 64): Uint8Array {
    const operators = '0 0 m 1 1 l S\n'
    const content = deflateSync(operators.repeat(Math.ceil((inflatedMiB * 1024 * 1024) / operators.length)), {
      level: 9,
    })
    const head = [
      '%PDF-1.7',
      '1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj',
      '2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj',
      '3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >> endobj',
      `4 0 obj << /Length ${content.length} /Filter /FlateDecode >> stream\n`,
    ].join('\n')
    const tail = '\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n'
    return Buffer.concat([Buffer.from(head, 'latin1'), content, Buffer.from(tail, 'latin1')])
  },
}
