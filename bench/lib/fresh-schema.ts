import pg from 'pg'

/**
 * An empty schema `bench_{name}_{pid}` on `url`'s database, for a benchmark's server to migrate and
 * fill (a role that may not create databases can still run this); `drop()` removes it.
 */
export async function freshSchema(url: string, name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `bench_${name}_${process.pid}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`drop schema if exists ${schema} cascade`)
  await admin.query(`create schema ${schema}`)
  const withSchema = new URL(url)
  withSchema.searchParams.set('options', `-c search_path=${schema}`)
  return {
    url: withSchema.href,
    async drop() {
      await admin.query(`drop schema if exists ${schema} cascade`)
      await admin.end()
    },
  }
}
