import { execFile } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { createOperatorTokens, OPERATOR_SCOPE } from '@pinfold/core'
import { TEST_SECRET } from '@pinfold/testing/test-api'
import { decodeJwt } from 'jose'
import { describe, expect, it } from 'vitest'

const cli = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

/** Runs `pinfold token …` in its own process and returns the minted token. */
async function pinfoldTokenText(...args: string[]) {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--conditions=source', cli, 'token', ...args],
    { env: { ...process.env, PINFOLD_AUTH_SECRET: TEST_SECRET } },
  )
  return stdout.trim()
}

/** The claims of the token `pinfold token …` mints. */
const pinfoldToken = async (...args: string[]) => decodeJwt(await pinfoldTokenText(...args))

describe('pinfold token', { timeout: 60_000 }, () => {
  it('token - expires after an hour by default, or after --expires-in', async () => {
    const [byDefault, quarter] = await Promise.all([
      pinfoldToken('--sub', 'alice'),
      pinfoldToken('--sub', 'alice', '--expires-in', '15m'),
    ])
    expect(byDefault.exp! - byDefault.iat!).toBe(3600)
    expect(quarter.exp! - quarter.iat!).toBe(900)
  })

  it('token - a malformed --expires-in is refused with a clear message and no token', async () => {
    await expect(pinfoldToken('--expires-in', 'forever')).rejects.toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/--expires-in must be a positive duration such as 90, 30s, 15m, 1h, 7d or 2w/),
    })
  })

  it('token - --expires is --expires-in; every unit the help names is accepted', async () => {
    const spans = await Promise.all(['90', '30s', '2w', '7d'].map((span) => pinfoldToken('--expires', span)))
    expect(spans.map((claims) => claims.exp! - claims.iat!)).toEqual([90, 30, 14 * 86_400, 7 * 86_400])
  })

  it('token --operator - an operator token the server verifies; tenant options and the scope by name are refused', async () => {
    const [token, refused, named] = await Promise.allSettled([
      pinfoldTokenText('--operator', '--sub', 'ops', '--expires-in', '15m'),
      pinfoldTokenText('--operator', '--org', 'acme'),
      pinfoldTokenText('--scope', OPERATOR_SCOPE),
    ])
    const minted = (token as PromiseFulfilledResult<string>).value
    expect(decodeJwt(minted)).toMatchObject({ sub: 'ops', scope: OPERATOR_SCOPE })
    expect(await createOperatorTokens(TEST_SECRET).verify(minted)).toEqual({ operatorId: 'ops' })
    expect(refused).toMatchObject({ reason: { code: 2, stderr: expect.stringMatching(/--operator takes no --org/) } })
    expect(named).toMatchObject({
      reason: { code: 2, stderr: expect.stringMatching(/unknown scope pinfold:operator/) },
    })
  })

  it('token - an unknown scope is refused, naming the known ones', async () => {
    await expect(pinfoldToken('--scope', 'org:files:read org:files:delete')).rejects.toMatchObject({
      code: 2,
      stdout: '',
      stderr: expect.stringMatching(/unknown scope org:files:delete: the scopes are org:files:read, /),
    })
  })
})
