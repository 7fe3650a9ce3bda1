import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pinataFor } from '../support/sdk.js'
import { startTestServer, type TestServer } from '../support/server.js'

describe('official SDK - authentication', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startTestServer()
  })
  afterAll(() => server.close())

  it("testAuthentication - answers Pinata's congratulations message for a valid token", async () => {
    const pinata = pinataFor(server.url, await server.token())
    expect(await pinata.testAuthentication()).toEqual({
      message: 'Congratulations! You are communicating with the Pinata API!',
    })
  })

  it('testAuthentication - rejects a forged token with an AuthenticationError (401)', async () => {
    const pinata = pinataFor(server.url, 'not-a-jwt')
    await expect(pinata.testAuthentication()).rejects.toMatchObject({ name: 'AuthenticationError', statusCode: 401 })
  })
})
