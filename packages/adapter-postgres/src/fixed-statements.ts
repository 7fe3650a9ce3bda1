/**
 * Statements whose SQL text is fixed when their module loads (no part of it built per call), which
 * `fromPgPool` runs as named prepared statements: each connection parses and plans one once, then
 * only binds and executes it. A plain parameterised statement is parsed, analysed and planned by
 * the server every time: for the API's file lookup by id that was half of PostgreSQL's CPU per
 * request, and the Parse message a fifth of the client's (bench/README.md).
 *
 * Only fixed texts: a server keeps every statement a connection prepared until the connection
 * closes, so a text built per call (a filter list, a multi-row insert) would grow that without
 * bound. The registry is therefore capped, and going past the cap is a programming error.
 */

/** More distinct fixed statements than the adapter has: a text registered per call would pass it. */
export const MAX_FIXED_STATEMENTS = 512

const names = new Map<string, string>()

/**
 * Registers `text` as a fixed statement and returns it unchanged: call it once, at module level,
 * for a statement on a hot path, and pass the returned text to `query` as usual. Its columns must
 * be named (no `select *` or `returning *`): a prepared statement whose result columns change under
 * it (a migration adding a column) fails rather than being prepared again.
 */
export function fixedStatement(text: string): string {
  if (!names.has(text)) {
    if (names.size >= MAX_FIXED_STATEMENTS) {
      throw new Error(`more than ${MAX_FIXED_STATEMENTS} fixed statements: fixedStatement is for texts fixed at load`)
    }
    names.set(text, `pinfold_${names.size + 1}`)
  }
  return text
}

/** The prepared statement name of a fixed statement's text; `undefined` for any other text. */
export function fixedStatementName(text: string): string | undefined {
  return names.get(text)
}
