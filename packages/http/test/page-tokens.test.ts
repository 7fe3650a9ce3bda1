import { type Seeds, seed } from '@pinfold/testing/reliability'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

/**
 * Page tokens come back from clients, so they are input like any other. Dates JavaScript accepts but
 * PostgreSQL refuses (year 0, ±100,000, ±275,760) once reached the database as a 500; these run on
 * the embedded PGlite store whatever `PINFOLD_TEST_STORAGE` says, since memory never rejected them.
 */
const token = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url')
const UUID = '00000000-0000-0000-0000-000000000000'

const MALFORMED = {
  'year 0': token(['0000-01-01T00:00:00.000Z', UUID]),
  'year -100000': token(['-100000-01-01T00:00:00.000Z', UUID]),
  'year +275760': token(['+275760-09-13T00:00:00.000Z', UUID]),
  'a date-only spelling': token(['2024-01-01', UUID]),
  'February 30': token(['2023-02-30T00:00:00.000Z', UUID]),
  'a number for the time': token([0, UUID]),
  'not JSON': Buffer.from('nope').toString('base64url'),
}

describe('list routes - malformed page tokens', { timeout: 60_000 }, () => {
  let server: TestApi
  let seeds: Seeds
  beforeAll(async () => {
    server = await startTestApi({ storage: 'embedded', payTo: '0x209693Bc6afc0C5328bA36FaF03C514EF312287C' })
    seeds = await seed(server)
  })
  afterAll(() => server?.close())

  const lists = () => [
    '/v3/files/public',
    '/v3/files/private',
    '/v3/groups/public',
    '/v3/x402/payment_instructions',
    `/v3/x402/payment_instructions/${seeds.instructionId}/cids`,
  ]

  for (const [label, pageToken] of Object.entries(MALFORMED)) {
    it(`GET every list - a page token with ${label} is a 400 JSON error`, async () => {
      for (const path of lists()) {
        const res = await server.api(`${path}?pageToken=${pageToken}`)
        expect({ path, status: res.status }).toEqual({ path, status: 400 })
        expect(await res.json()).toEqual({ error: expect.stringMatching(/pageToken/) })
      }
    })
  }
})
