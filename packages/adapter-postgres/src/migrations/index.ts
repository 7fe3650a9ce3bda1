import { initial } from './0001-initial.js'
import { contentLayout } from './0002-content-layout.js'

/**
 * One schema change. Statements run one at a time (PGlite's extended protocol takes one statement
 * per query), all inside the migration's transaction.
 */
export interface Migration {
  /** Applied in ascending order; never renumber or edit a released migration, add a new one. */
  version: number
  name: string
  statements: string[]
}

export const MIGRATIONS: readonly Migration[] = [initial, contentLayout]
