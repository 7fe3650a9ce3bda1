/**
 * A file's bytes in, passages of readable text out (`extractPassages` of `@pinfold/text-extract`
 * fits). Reads at most `maxBytes`; content it cannot read is `INVALID_INPUT`. An extractor with
 * bounded slots shares them fairly between tenants (`tenant`: whose file it is): past a tenant's
 * share its next extraction is `RATE_LIMITED` while other tenants' still run.
 */
export type TextExtractor = (
  source: AsyncIterable<Uint8Array>,
  options: {
    mimeType: string
    fileName?: string | undefined
    maxBytes?: number | undefined
    tenant?: string | undefined
    signal?: AbortSignal | undefined
  },
) => Promise<string[]>
