import { describeRecordStore } from '@pinfold/conformance'
import { afterAll } from 'vitest'
import { startPgvectorContainer } from './container.js'
import { closeSharedPGlite, harness, migratedPGliteSchema, serverSchema, TEST_DATABASE_URL } from './targets.js'

afterAll(closeSharedPGlite)

describeRecordStore('PostgreSQL on PGlite', async () => harness(await migratedPGliteSchema()))

const databaseUrl = TEST_DATABASE_URL
if (databaseUrl)
  describeRecordStore('PostgreSQL server (TEST_DATABASE_URL)', async () => harness(await serverSchema(databaseUrl)))

// A third target where a container runtime answers; registers nothing when none does.
const container = await startPgvectorContainer()
if (container) {
  afterAll(container.stop)
  describeRecordStore('PostgreSQL in pgvector/pgvector:pg17 (testcontainers)', async () =>
    harness(await serverSchema(container.url)),
  )
}
