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

/** A LIKE pattern matching text that contains `part` taken literally. */
export function likeContaining(part: string): string {
  return `%${part.replace(/[\\%_]/g, (char) => `\\${char}`)}%`
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * Ids are uuid columns, but callers may pass any string (an id from a URL). A string that is not a
 * UUID cannot name a record, so lookups answer "absent" instead of letting PostgreSQL reject the cast.
 */
export function isUuid(value: string): boolean {
  return UUID.test(value)
}
