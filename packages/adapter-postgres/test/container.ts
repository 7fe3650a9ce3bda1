import { PostgreSqlContainer } from '@testcontainers/postgresql'
import { getContainerRuntimeClient } from 'testcontainers'

/**
 * Starts `pgvector/pgvector:pg17` when a container runtime answers, else resolves `undefined`
 * (no engine is not a failure: the PGlite and TEST_DATABASE_URL targets still run).
 */
export async function startPgvectorContainer(): Promise<{ url: string; stop(): Promise<void> } | undefined> {
  try {
    await getContainerRuntimeClient()
  } catch {
    return undefined
  }
  const container = await new PostgreSqlContainer('pgvector/pgvector:pg17').start()
  return { url: container.getConnectionUri(), stop: async () => void (await container.stop()) }
}
