import { afterAll, describe, expect, it } from 'vitest'
import { createPostgresRecordStore, migrate } from '../src/index.js'
import { closeSharedPGlite, pgliteSchema } from './targets.js'

describe('error mapping of client values', () => {
  afterAll(() => closeSharedPGlite())

  it('lookups - an id or filter holding a NUL byte is INVALID_INPUT, not INTERNAL', async () => {
    const { client, drop } = await pgliteSchema()
    try {
      await migrate(client)
      const store = createPostgresRecordStore({ client })
      // Some lookups validate ids first and answer "not found"; none may fail as INTERNAL (a 500).
      const outcomes = await Promise.all(
        [
          () => store.uploadSessions.getUploadSession('a\u0000b'),
          () => store.uploadSessions.deleteUploadSession('a\u0000b'),
          () => store.files.getFile('acme', 'public', 'a\u0000b'),
          () => store.files.deleteFile('acme', 'public', 'a\u0000b'),
          () => store.groups.getGroup('acme', 'public', '\u0000'),
          () => store.files.listFiles('acme', 'public', { namePrefix: 'x\u0000' }, { limit: 10, order: 'ASC' }),
        ].map((call) =>
          call().then(
            () => 'resolved',
            (err: { code?: string }) => err.code,
          ),
        ),
      )
      expect(outcomes.filter((outcome) => outcome !== 'resolved' && outcome !== 'INVALID_INPUT')).toEqual([])
      expect(outcomes[0]).toBe('INVALID_INPUT')
    } finally {
      await drop()
    }
  })
})
