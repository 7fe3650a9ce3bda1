/** Collects positional parameters while a statement is assembled: `add(value)` returns `$n`. */
export class Params {
  readonly values: unknown[] = []

  add(value: unknown): string {
    this.values.push(value)
    return `$${this.values.length}`
  }
}

/** A LIKE pattern matching names that start with `prefix` taken literally (`%`, `_`, `\` escaped). */
export function likePrefix(prefix: string): string {
  return `${prefix.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}

/**
 * `column` contains `part`, ignoring case. A function call rather than `ILIKE '%…%'`: the planner
 * estimates a pattern's matches from the column's statistics, which for unique names is near
 * zero, and then sorts every one of the tenant's rows instead of walking the keyset index until a
 * page is found (657 ms for a 1 % match at a million files in bench/pin-list.ts).
 */
export function containsIgnoringCase(column: string, part: string, params: Params): string {
  return `strpos(lower(${column}), lower(${params.add(part)})) > 0`
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Ids are uuid columns, but callers may pass any string (an id from a URL). A string that is not a
 * UUID cannot name a record, so lookups answer "absent" instead of letting PostgreSQL reject the cast.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}
