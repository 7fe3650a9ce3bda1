import { execFile } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { mintOperatorToken, mintToken, SCOPES } from '@pinfold/core'
import { form, TEST_SECRET } from '@pinfold/testing/test-api'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, launchChromium } from '../support/browser.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { ARTIFACTS, expectAccessibleAtEverySize } from './browser-harness.js'

/**
 * The console's operator area in a real browser against a real server: an operator token signs in
 * and sees the tenants real uploads made, sets a limit the tenant's next upload is refused by,
 * suspends with the content hidden and resumes, revokes a tenant's keys, reads the pin queue and
 * the totals, and adds and removes a deny rule, each checked where it takes effect (the tenant API,
 * the gateway). A tenant's token never sees the area. Axe's WCAG 2.1 A/AA checks at 1280 and 375 px.
 * Screenshots land in packages/console/test-artifacts/ (git-ignored) as `operator-*.png`.
 */

const consoleDir = fileURLToPath(new URL('../../../console/', import.meta.url))
const TOKEN_KEY = 'pinfold.console.token'

/** A CID no peer serves: the pin-by-CID request it makes waits in the queue. */
const UNREACHABLE_CID = 'bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'

interface AdminTenant {
  id: string
  usage: { files: number }
  accounting: { logical_bytes: number; sole_bytes: number; shared_bytes: number }
}

describe.skipIf(!CHROMIUM)('the console’s operator area in chromium', { timeout: 120_000 }, () => {
  let browser: Browser
  let server: TestServer
  let operator: string
  /** acme's public CID (its alone) and globex's. */
  let acmeCid: string
  let globexCid: string

  const upload = async (org: string, text: string, network: 'public' | 'private', auth?: string) => {
    const res = await server.api('/v3/files', {
      method: 'POST',
      body: form({ network }, { bytes: text, name: `${text.slice(0, 8)}.txt` }),
      ...(auth ? { auth } : { org }),
    })
    return { status: res.status, body: (await res.json()) as { data: { cid: string }; error?: string } }
  }

  const admin = async <T>(path: string): Promise<T> => {
    const res = await server.api(`/admin/v1${path}`, { auth: operator })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: T }).data
  }

  const gatewayStatus = async (cid: string) => {
    const res = await server.fetch(`${server.url}/ipfs/${cid}`)
    await res.arrayBuffer()
    return res.status
  }

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [join(consoleDir, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: consoleDir,
      env: { ...process.env, NODE_ENV: 'production' },
    })
    await mkdir(ARTIFACTS, { recursive: true })
    browser = await launchChromium()
    server = await startTestServer({}, { storage: 'memory' })
    operator = await mintOperatorToken(TEST_SECRET, { sub: 'ops', expiresIn: '1h' })
    // tenants exist by their first requests: two of them upload, one content held by both
    acmeCid = (await upload('acme', 'acme public page', 'public')).body.data.cid
    globexCid = (await upload('globex', 'globex public page', 'public')).body.data.cid
    for (const org of ['acme', 'globex'])
      expect((await upload(org, 'held by both tenants', 'private')).status).toBe(200)
    const pin = await server.api('/v3/files/public/pin_by_cid', {
      method: 'POST',
      body: JSON.stringify({ cid: UNREACHABLE_CID, name: 'far away' }),
      org: 'globex',
    })
    expect(pin.status).toBe(200)
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  /** A console page signed in with `token`, typed and sent by keyboard. */
  async function signIn(context: BrowserContext, token: string, heading: string): Promise<Page> {
    const page = await context.newPage()
    await page.goto(`${server.url}/console/`)
    await page.getByLabel('Token or API key').fill(token)
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await page.getByRole('heading', { name: heading, level: 2 }).waitFor()
    expect(await page.evaluate<string | null>(`sessionStorage.getItem('${TOKEN_KEY}')`)).toBe(token)
    return page
  }

  it('lists tenants, sets a limit, suspends (content hidden) and resumes, revokes keys, shows the queue and totals, adds and removes a deny rule', async () => {
    const key = await server.api('/v3/pinata/keys', {
      method: 'POST',
      body: JSON.stringify({ keyName: 'ci', permissions: { admin: true } }),
      org: 'acme',
    })
    const { JWT: acmeKey } = (await key.json()) as { JWT: string }
    expect((await server.api('/v3/files/public', { auth: acmeKey })).status).toBe(200)

    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await signIn(context, operator, 'Tenants')
    await page.getByText('Operator', { exact: true }).waitFor()
    // the tenant views are not there: the tenant API refuses an operator token
    expect(await page.getByRole('link', { name: 'Files' }).count()).toBe(0)

    // the tenants the uploads made, with the figures the admin API gives
    const rows = page.getByRole('table').getByRole('row')
    const listed = await admin<{ tenants: AdminTenant[] }>('/tenants')
    for (const id of ['acme', 'globex']) {
      const tenant = listed.tenants.find((t) => t.id === id)!
      expect(tenant.accounting.shared_bytes).toBeGreaterThan(0) // the text both hold
      const row = rows.filter({ has: page.getByRole('link', { name: id, exact: true }) })
      await expect
        .poll(() => row.getByRole('cell').allTextContents())
        .toEqual([
          id,
          'Active',
          String(tenant.usage.files),
          `${tenant.accounting.logical_bytes} B`,
          `${tenant.accounting.sole_bytes} B`,
          `${tenant.accounting.shared_bytes} B`,
          'none',
        ])
    }
    await page.screenshot({ path: join(ARTIFACTS, 'operator-tenants-1280.png'), fullPage: true })
    await page.getByLabel('Tenant id contains').fill('GLOB')
    await page.getByRole('button', { name: 'Search' }).click()
    await expect.poll(() => rows.count()).toBe(2) // the header and globex
    await rows.getByRole('link', { name: 'globex' }).waitFor()
    await page.getByRole('button', { name: 'Clear' }).click()
    // a tenant created before its first request; an existing id is the server's 409
    await page.getByLabel('Tenant id (its tokens’ org)').fill('acme')
    await page.getByRole('button', { name: 'Create tenant' }).click()
    await page.getByRole('alert').filter({ hasText: 'tenant acme exists already' }).waitFor()
    await page.getByLabel('Tenant id (its tokens’ org)').fill('initech')
    await page.getByRole('button', { name: 'Create tenant' }).click()
    await page.getByRole('heading', { name: 'Tenant initech' }).waitFor()
    await page.getByText('created by an operator').waitFor()
    await page.getByRole('link', { name: '← All tenants' }).click()
    await page.getByRole('link', { name: 'acme', exact: true }).click()
    await page.getByRole('heading', { name: 'Tenant acme' }).waitFor()
    await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.id')).toBe('tenant-title')

    // a limit: the server's validation message shown, then one the tenant's next upload is held to
    const files = (await admin<{ usage: { files: number } }>('/tenants/acme')).usage.files
    await page.getByLabel('Files', { exact: true }).selectOption({ label: 'Set to…' })
    await page.getByLabel('New files limit').fill('-1')
    await page.getByRole('button', { name: 'Save limits' }).click()
    await page.getByRole('alert').filter({ hasText: /files/ }).waitFor()
    expect((await admin<{ account: { overrides: object } }>('/tenants/acme')).account.overrides).toEqual({})
    await page.getByLabel('New files limit').fill(String(files))
    await page.getByRole('button', { name: 'Save limits' }).click()
    await page.getByRole('status').filter({ hasText: 'Limits saved' }).waitFor()
    const limitRow = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Files', exact: true }) })
    await expect
      .poll(() => limitRow.getByRole('cell').allTextContents())
      .toEqual([String(files), String(files), String(files)])
    const refused = await upload('acme', 'one file too many', 'public')
    expect(refused.status).toBe(403)
    expect(refused.body.error).toMatch(/limit/)
    expect((await upload('globex', 'globex is not limited', 'public')).status).toBe(200)

    // suspended with its public content hidden: its requests and its CID refused, globex's served
    await page.getByLabel('Reason (named in every refusal)').fill('abuse report')
    await page.getByRole('radio', { name: 'Hide it from the gateways' }).check()
    await page.getByRole('button', { name: 'Suspend tenant' }).click()
    // the confirmation takes the focus: Enter answers it
    await expect
      .poll(() => page.evaluate<string | undefined>('document.activeElement?.textContent'))
      .toBe('Yes, suspend')
    expect(await gatewayStatus(acmeCid)).toBe(200) // nothing happens before the answer
    await page.keyboard.press('Enter')
    await page.getByRole('status').filter({ hasText: 'its public content is hidden' }).waitFor()
    await page.getByText('Suspended, content hidden').first().waitFor()
    expect(await gatewayStatus(acmeCid)).toBe(404)
    expect(await gatewayStatus(globexCid)).toBe(200)
    const suspended = await server.api('/v3/files/public', { org: 'acme' })
    expect(suspended.status).toBe(403)
    expect(((await suspended.json()) as { error: string }).error).toMatch(/suspended .*: abuse report/)
    await page.screenshot({ path: join(ARTIFACTS, 'operator-tenant-1280.png'), fullPage: true })

    await page.getByRole('button', { name: 'Resume tenant' }).click()
    await page.getByRole('status').filter({ hasText: 'Resumed acme.' }).waitFor()
    expect(await gatewayStatus(acmeCid)).toBe(200)
    expect((await server.api('/v3/files/public', { org: 'acme' })).status).toBe(200)

    // every key revoked, after a confirmation; cancelling one gives the focus back and revokes nothing
    await page.getByRole('button', { name: 'Revoke all keys' }).click()
    await page.getByRole('button', { name: 'Cancel' }).click()
    const focused = () => page.evaluate<string | undefined>('document.activeElement?.textContent')
    await expect.poll(focused).toBe('Revoke all keys')
    expect((await admin<{ api_keys: { active: number } }>('/tenants/acme')).api_keys.active).toBe(1)
    await page.keyboard.press('Enter')
    await page.getByRole('button', { name: 'Yes, revoke all' }).click()
    await page.getByRole('status').filter({ hasText: 'Revoked 1 API key of acme.' }).waitFor()
    // at once, though the key was just used (the revocation clears the keys the process trusts)
    expect((await server.api('/v3/files/public', { auth: acmeKey })).status).toBe(401)
    expect((await server.api('/v3/files/public', { org: 'acme' })).status).toBe(200) // its tokens still work

    // the pin queue across tenants
    await page.getByRole('link', { name: 'Pin queue' }).click()
    const pinRow = page.getByRole('row').filter({ hasText: UNREACHABLE_CID })
    await pinRow.getByRole('link', { name: 'globex' }).waitFor()
    await pinRow.getByText('far away').waitFor()
    await page.screenshot({ path: join(ARTIFACTS, 'operator-pins-1280.png'), fullPage: true })

    // totals: the figures the admin API (and /metrics) give
    await page.getByRole('link', { name: 'Totals' }).click()
    const totals = await admin<{ stored: { files: number; blocks: number } }>('/totals')
    const fact = (name: string) => page.locator('dt', { hasText: name }).locator('xpath=following-sibling::dd[1]')
    await expect.poll(() => fact('Files').textContent()).toBe(String(totals.stored.files))
    expect(await fact('Blocks').textContent()).toBe(String(totals.stored.blocks))

    // a deny rule: a bad line gets the server's reason; a good one changes the gateway's answer
    await page.getByRole('link', { name: 'Deny rules' }).click()
    await page.getByText('No deny rules of the operator’s own.').waitFor()
    await page.getByLabel('Rule', { exact: true }).fill('/ipfs/not-a-cid')
    await page.getByRole('button', { name: 'Add rule' }).click()
    await page.getByRole('alert').waitFor()
    expect((await admin<{ rules: unknown[] }>('/deny-rules')).rules).toEqual([])
    await page.getByLabel('Rule', { exact: true }).fill(`/ipfs/${globexCid}`)
    await page.getByRole('button', { name: 'Add rule' }).click()
    const rules = page.getByRole('table', { name: 'The operator’s deny rules' })
    await rules.getByText(`/ipfs/${globexCid}`).waitFor()
    expect(await page.getByRole('alert').count()).toBe(0)
    expect(await gatewayStatus(globexCid)).toBe(410)
    await page.screenshot({ path: join(ARTIFACTS, 'operator-deny-rules-1280.png'), fullPage: true })
    await page.getByRole('button', { name: `Remove /ipfs/${globexCid}` }).click()
    await page.getByRole('button', { name: 'Yes, remove' }).click()
    await page.getByText('No deny rules of the operator’s own.').waitFor()
    expect(await gatewayStatus(globexCid)).toBe(200)
    await context.close()
  })

  it("passes axe-core's WCAG 2.1 A and AA checks on every operator view, at 1280 and 375 px without sideways scrolling", async () => {
    await expectAccessibleAtEverySize(browser, async ({ context, check, shot }) => {
      const page = await signIn(context, operator, 'Tenants')
      await page.getByRole('link', { name: 'globex' }).first().waitFor()
      await check(page, 'tenants')
      await shot(page, 'operator-tenants')
      await page.getByRole('link', { name: 'globex' }).first().click()
      await page.getByRole('heading', { name: 'Tenant globex' }).waitFor()
      await page.getByLabel('Storage', { exact: true }).selectOption({ label: 'Set to…' })
      await page.getByRole('button', { name: 'Suspend tenant' }).waitFor()
      await check(page, 'tenant')
      await shot(page, 'operator-tenant')
      await page.getByRole('link', { name: 'Pin queue' }).click()
      await page.getByText(UNREACHABLE_CID).waitFor()
      await check(page, 'pin queue')
      await page.getByRole('link', { name: 'Totals' }).click()
      await page.getByRole('table', { name: 'Pin requests by status' }).waitFor()
      await check(page, 'totals')
      await page.getByRole('link', { name: 'Deny rules' }).click()
      await page.getByLabel('Rule', { exact: true }).fill('/ipfs/nope')
      await page.getByRole('button', { name: 'Add rule' }).click()
      await page.getByRole('alert').waitFor()
      await check(page, 'deny rules with an error')
    })
  })

  it('a tenant never sees the operator area, even with a token claiming the operator scope; an expired operator token ends the session', async () => {
    // an operator signed in with a token about to expire (checked at the end)
    const expiresAt = Date.now() + 10_000
    const brief = await mintOperatorToken(TEST_SECRET, { sub: 'ops', expiresIn: 10 })
    const operatorContext = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const operatorPage = await signIn(operatorContext, brief, 'Tenants')

    const claiming = await mintToken(TEST_SECRET, {
      sub: 'mallory',
      org: 'acme',
      scopes: [...SCOPES, 'pinfold:operator'],
      expiresIn: '1h',
    })
    for (const token of [await server.token({ org: 'acme' }), claiming]) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      const page = await signIn(context, token, 'Files')
      for (const name of ['Tenants', 'Pin queue', 'Totals']) {
        expect(await page.getByRole('link', { name }).count()).toBe(0)
      }
      expect(await page.getByText('Operator', { exact: true }).count()).toBe(0)
      // nor by its address
      await page.goto(`${server.url}/console/#tenant/acme`)
      await page.getByRole('heading', { name: 'Files', level: 2 }).waitFor()
      expect(await page.getByRole('heading', { name: 'Tenant acme' }).count()).toBe(0)
      await context.close()
    }

    // once expired, the admin API no longer answers the token, and the session ends
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt + 1500 - Date.now())))
    await operatorPage.getByRole('link', { name: 'Pin queue' }).click()
    await operatorPage
      .getByRole('alert')
      .filter({ hasText: 'Signed out: the server no longer takes this token' })
      .waitFor()
    expect(await operatorPage.evaluate<string | null>(`sessionStorage.getItem('${TOKEN_KEY}')`)).toBeNull()
    await operatorContext.close()
  })
})
