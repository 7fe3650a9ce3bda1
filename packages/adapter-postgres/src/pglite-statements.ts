import type { Queryable, Row, SqlClient } from './queryable.js'

/**
 * What the prepared path uses of a PGlite instance (`@electric-sql/pglite` 0.5), typed
 * structurally so PGlite stays an optional peer dependency: its wire-protocol entry point, its
 * type (de)serializers, and the two locks its own `query` takes.
 */
export interface PGliteProtocol {
  execProtocol(message: Uint8Array, options?: { syncToFs?: boolean }): Promise<{ messages: BackendMessage[] }>
  syncToFs(): Promise<void>
  serializers: Record<number | string, (value: unknown) => string>
  parsers: Record<number | string, (text: string, typeId?: number) => unknown>
  runExclusive<T>(fn: () => Promise<T>): Promise<T>
  _runExclusiveTransaction<T>(fn: () => Promise<T>): Promise<T>
  _checkReady(): Promise<void>
}

interface BackendMessage {
  name: string
  dataTypeIDs?: number[]
  fields?: unknown[]
}

interface Statement {
  name: string
  parameterTypes: number[]
  columns: { name: string; dataTypeID: number }[]
}

/** The PGlite module's protocol serializer and type parser, loaded with the first statement. */
type PGliteModule = typeof import('@electric-sql/pglite')

/** Statements kept prepared per client; the least recently used is closed past it. */
export const MAX_PREPARED_STATEMENTS = 256

/** Names unique across every client of the process: several clients may share one PGlite (tests do). */
let clients = 0

/**
 * Runs statements on PGlite as named prepared statements, parsed once per SQL text, then one
 * wire-protocol call per execution (Bind + Execute + Sync). PGlite's own `query` parses, plans and
 * describes every statement anew and crosses into WebAssembly six times for it (Parse, Describe,
 * Bind, Describe, Execute, Sync): on the embedded default a primary-key lookup cost ~1.1 ms of CPU
 * that way and ~0.2 ms this way (bench/README.md). The result is what `query` answers: the same
 * serializers for parameters, by the types PostgreSQL inferred for them, and the same parsers for
 * the columns. Plans stay as PostgreSQL chooses for prepared statements (custom plans for the first
 * executions, a generic plan once it costs no more); PostgreSQL re-analyses a statement whose
 * tables changed or whose `search_path` moved, and one whose result columns changed is prepared
 * again here.
 */
export function preparedStatements(db: PGliteProtocol) {
  const prefix = `pinfold_${++clients}_`
  let named = 0
  let module: Promise<PGliteModule> | undefined
  /** In use order, least recent first (a Map keeps insertion order). */
  const statements = new Map<string, Statement>()
  /** Evicted statements, closed with the next call. */
  const toClose: string[] = []

  async function prepare(pglite: PGliteModule, text: string): Promise<Statement> {
    const { serialize } = pglite.protocol
    const name = `${prefix}${++named}`
    const closing = toClose.splice(0).map((old) => serialize.close({ type: 'S', name: old }))
    const { messages } = await db.execProtocol(
      concat([...closing, serialize.parse({ name, text }), serialize.describe({ type: 'S', name }), serialize.sync()]),
      { syncToFs: false },
    )
    const parameters = messages.find((message) => message.name === 'parameterDescription')
    const row = messages.find((message) => message.name === 'rowDescription')
    const statement: Statement = {
      name,
      parameterTypes: parameters?.dataTypeIDs ?? [],
      columns: ((row?.fields ?? []) as { name: string; dataTypeID: number }[]).map(({ name, dataTypeID }) => ({
        name,
        dataTypeID,
      })),
    }
    statements.set(text, statement)
    if (statements.size > MAX_PREPARED_STATEMENTS) {
      const [oldest] = statements
      statements.delete(oldest![0])
      toClose.push(oldest![1].name)
    }
    return statement
  }

  async function execute(pglite: PGliteModule, statement: Statement, params: unknown[]): Promise<Row[]> {
    const { serialize } = pglite.protocol
    const values = params.map((param, i) => {
      if (param === null || param === undefined) return null
      const serializer = db.serializers[statement.parameterTypes[i]!]
      return serializer ? serializer(param) : String(param)
    })
    const closing = toClose.splice(0).map((old) => serialize.close({ type: 'S', name: old }))
    const { messages } = await db.execProtocol(
      concat([
        ...closing,
        serialize.bind({ statement: statement.name, values }),
        serialize.execute({}),
        serialize.sync(),
      ]),
      { syncToFs: false },
    )
    const rows: Row[] = []
    const { columns } = statement
    const parsers = db.parsers as Parameters<PGliteModule['types']['parseType']>[2]
    for (const message of messages) {
      if (message.name !== 'dataRow') continue
      const fields = message.fields as (string | null)[]
      const row: Row = {}
      for (let i = 0; i < columns.length; i++) {
        row[columns[i]!.name] = pglite.types.parseType(fields[i]!, columns[i]!.dataTypeID, parsers)
      }
      rows.push(row)
    }
    return rows
  }

  /** One statement; the caller holds PGlite's query lock (and its transaction lock, or is the transaction). */
  async function run(text: string, params: unknown[] = []): Promise<{ rows: Row[] }> {
    module ??= import('@electric-sql/pglite')
    const pglite = await module
    let statement = statements.get(text)
    if (statement) {
      // most recently used last
      statements.delete(text)
      statements.set(text, statement)
    } else {
      statement = await prepare(pglite, text)
    }
    try {
      return { rows: await execute(pglite, statement, params) }
    } catch (error) {
      if (!resultTypeChanged(error)) throw error
      // a migration changed the columns it answers: prepared again (outside a transaction only,
      // as the failed execution aborted one, and a transaction's caller sees the error)
      statements.delete(text)
      toClose.push(statement.name)
      throw error
    }
  }

  return {
    /** A statement on its own, as PGlite's `query` runs one: both of its locks, then the files synced. */
    query: async (text: string, params?: unknown[]): Promise<{ rows: Row[] }> => {
      await db._checkReady()
      return db._runExclusiveTransaction(() =>
        db.runExclusive(async () => {
          let result: { rows: Row[] }
          try {
            result = await run(text, params)
          } catch (error) {
            if (!resultTypeChanged(error)) throw error
            result = await run(text, params)
          }
          await db.syncToFs()
          return result
        }),
      )
    },
    /** The statements of a transaction PGlite's `transaction` opened (it holds the transaction lock). */
    inTransaction: (): Queryable => ({
      query: (text, params) => db.runExclusive(() => run(text, params)),
    }),
  }
}

/** PostgreSQL refuses to run a prepared statement whose result columns changed since it was prepared. */
function resultTypeChanged(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown }
  return code === '0A000' && typeof message === 'string' && message.includes('cached plan must not change result type')
}

function concat(parts: Uint8Array[]): Uint8Array {
  let length = 0
  for (const part of parts) length += part.length
  const message = new Uint8Array(length)
  let offset = 0
  for (const part of parts) {
    message.set(part, offset)
    offset += part.length
  }
  return message
}

/**
 * The part of a PGlite instance used here (`@electric-sql/pglite` 0.5): its transactions, and the
 * wire protocol and locks that statements run through as prepared statements (`preparedStatements` above).
 */
export interface PGliteLike extends PGliteProtocol {
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>
}

/**
 * Adapts a PGlite instance; PGlite serialises transactions on its single connection itself. Every
 * statement runs as a prepared statement of this client, parsed once per SQL text.
 */
export function fromPGlite(db: PGliteLike): SqlClient {
  const statements = preparedStatements(db)
  const inTransaction = statements.inTransaction()
  return {
    query: statements.query,
    transaction: (work) => db.transaction(() => work(inTransaction)),
  }
}
