import { execFile } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { mintOperatorToken } from '@pinfold/core'
import { form, TEST_SECRET } from '@pinfold/testing/test-api'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations, CHROMIUM, launchChromium } from '../support/browser.js'
import { startTestServer, type TestServer } from '../support/server.js'
import type { ReceivedWebhook } from '../support/webhook-receiver.js'

/**
 * The operator's Enable / Disable of a tenant's webhook endpoint, in a real browser against a real
 * server and a real receiver: an endpoint whose receiver keeps answering 500 is disabled by Pinfold;
 * the operator's tenant page lists it with the reason and the failing streak (another tenant's
 * endpoint is not there); Enable sends the held delivery, verified by `standardwebhooks`; Disable
 * with a reason is what the tenant's API then says. Both are in the tenant's audit log with the
 * operator as actor and the request ids of the browser's own requests. Axe's WCAG 2.1 A/AA checks
 * at 1280 and 375 px. Screenshots land in packages/console/test-artifacts/ (git-ignored).
 */

const consoleDir = fileURLToPath(new URL('../../../console/', import.meta.url))
const ARTIFACTS = join(consoleDir, 'test-artifacts')

/** A receiver on loopback answering every request with the status of the moment (`answer`). */
async function startSwitchableReceiver() {
  const received: ReceivedWebhook[] = []
  let status = 500
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() })
      res.writeHead(status).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    answer: (next: number) => {
      status = next
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

interface WireEndpoint {
  id: string
  url: string
  enabled: boolean
  disabled_reason: string | null
  failing_since: string | null
}

describe.skipIf(!CHROMIUM)('the operator’s tenant webhooks in chromium', { timeout: 120_000 }, () => {
  let browser: Browser
  let server: TestServer
  let receiver: Awaited<ReturnType<typeof startSwitchableReceiver>>
  let operator: string
  let endpoint: WireEndpoint
  let secret: string
  let theirs: WireEndpoint

  const endpointOf = async (org: string, id: string): Promise<WireEndpoint> => {
    const res = await server.api(`/v3/webhooks/${id}`, { org })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: WireEndpoint }).data
  }

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [join(consoleDir, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: consoleDir,
      env: { ...process.env, NODE_ENV: 'production' },
    })
    await mkdir(ARTIFACTS, { recursive: true })
    receiver = await startSwitchableReceiver()
    server = await startTestServer(
      {
        // the receiver is on loopback, which endpoints may reach only when the operator allows it
        PINFOLD_WEBHOOK_ALLOW_PRIVATE: 'true',
        PINFOLD_WEBHOOK_POLL_MS: '100',
        // retries 0.2 to 0.4 s apart; an endpoint failing for a second is disabled
        PINFOLD_WEBHOOK_RETRY_BASE_MS: '400',
        PINFOLD_WEBHOOK_RETRY_MAX_MS: '400',
        PINFOLD_WEBHOOK_MAX_ATTEMPTS: '50',
        PINFOLD_WEBHOOK_DISABLE_AFTER_MS: '1000',
      },
      { storage: 'memory' },
    )
    operator = await mintOperatorToken(TEST_SECRET, { sub: 'ops', expiresIn: '1h' })
    browser = await launchChromium()

    const register = async (org: string, url: string) => {
      const res = await server.api('/v3/webhooks', {
        method: 'POST',
        body: JSON.stringify({ url, event_types: ['file.created'], description: `${org} receiver` }),
        org,
      })
      expect(res.status).toBe(201)
      return ((await res.json()) as { data: WireEndpoint & { secret: string } }).data
    }
    const created = await register('acme', receiver.url)
    secret = created.secret
    endpoint = created
    // globex's endpoint (never reached: its address only has to pass the check)
    theirs = await register('globex', 'https://globex.example.com/hooks')
    // acme's upload is an event its receiver keeps refusing, until Pinfold disables the endpoint
    const uploaded = await server.api('/v3/files', {
      method: 'POST',
      body: form({ network: 'public' }, { bytes: 'a file for the webhook', name: 'hooked.txt' }),
      org: 'acme',
    })
    expect(uploaded.status).toBe(200)
    // (expect.poll belongs to tests: a loop here)
    const until = Date.now() + 30_000
    while ((await endpointOf('acme', endpoint.id)).enabled) {
      if (Date.now() > until) throw new Error('Pinfold did not disable the failing endpoint within 30 s')
      await new Promise((resolve) => setTimeout(resolve, 200))
    }
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    await receiver?.close()
  })

  async function tenantPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage()
    await page.goto(`${server.url}/console/`)
    await page.getByLabel('Token or API key').fill(operator)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.getByRole('heading', { name: 'Tenants', level: 2 }).waitFor()
    await page.getByRole('link', { name: 'acme', exact: true }).click()
    await page.getByRole('heading', { name: 'Tenant acme' }).waitFor()
    return page
  }

  it('lists the tenant’s endpoint Pinfold disabled, enables it (the held delivery is sent), disables it with a reason; both recorded', async () => {
    const disabledByPinfold = await endpointOf('acme', endpoint.id)
    expect(disabledByPinfold.disabled_reason).toMatch(/^every attempt failed for 1 second \(the last: .*500/)
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' })
    const page = await tenantPage(context)

    const table = page.getByRole('table', { name: 'Webhook endpoints' })
    const row = table.getByRole('row').filter({ hasText: receiver.url })
    await row.waitFor()
    // only acme's endpoint: globex's is on globex's page
    await expect.poll(() => table.getByRole('row').count()).toBe(2)
    expect(await table.getByText(theirs.url).count()).toBe(0)
    await row.getByText('Disabled', { exact: true }).waitFor()
    await row.getByText(disabledByPinfold.disabled_reason!, { exact: false }).waitFor()
    expect(await row.getByRole('cell').nth(1).textContent()).not.toBe('—') // failing since
    await page.screenshot({ path: join(ARTIFACTS, 'operator-tenant-webhooks-1280.png'), fullPage: true })

    // Enable: the receiver mended, the delivery held while disabled is sent and verifies
    receiver.answer(204)
    const attempts = receiver.received.length
    const enabling = page.waitForResponse((res) => res.url().endsWith(`/webhooks/${endpoint.id}/enable`))
    await row.getByRole('button', { name: 'Enable', exact: true }).click()
    const enableRequestId = (await enabling).headers()['x-request-id']
    await page
      .getByRole('status')
      .filter({ hasText: `Enabled ${receiver.url}` })
      .waitFor()
    await row.getByText('Enabled', { exact: true }).waitFor()
    expect(await endpointOf('acme', endpoint.id)).toMatchObject({ enabled: true, failing_since: null })
    await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBeGreaterThan(attempts)
    const sent = receiver.received.at(-1)!
    const headers = Object.fromEntries(
      ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(sent.headers[name])]),
    )
    expect(new Webhook(secret).verify(sent.body, headers)).toMatchObject({ type: 'file.created' })

    // Disable with a reason: asked in place, then what the tenant reads
    await row.getByRole('button', { name: 'Disable', exact: true }).click()
    await page.getByLabel('Reason (optional, shown to the tenant)').fill('floods a partner')
    const disabling = page.waitForResponse((res) => res.url().endsWith(`/webhooks/${endpoint.id}/disable`))
    await page.getByRole('button', { name: 'Disable endpoint', exact: true }).click()
    const disableRequestId = (await disabling).headers()['x-request-id']
    await page
      .getByRole('status')
      .filter({ hasText: `Disabled ${receiver.url}` })
      .waitFor()
    await row.getByText('disabled by the operator: floods a partner').waitFor()
    expect(await endpointOf('acme', endpoint.id)).toMatchObject({
      enabled: false,
      disabled_reason: 'disabled by the operator: floods a partner',
    })
    expect(await endpointOf('globex', theirs.id)).toMatchObject({ enabled: true })

    const log = await server.api('/v3/audit/events?type=endpoint.disabled,endpoint.enabled&order=asc', { org: 'acme' })
    const { events } = ((await log.json()) as { data: { events: object[] } }).data
    const target = { kind: 'webhook', id: endpoint.id }
    expect(events).toMatchObject([
      { type: 'endpoint.disabled', actor: { kind: 'system', id: 'webhooks' }, request_id: null, target },
      { type: 'endpoint.enabled', actor: { kind: 'operator', id: 'ops' }, request_id: enableRequestId, target },
      {
        type: 'endpoint.disabled',
        actor: { kind: 'operator', id: 'ops' },
        request_id: disableRequestId,
        target,
        data: { reason: 'disabled by the operator: floods a partner' },
      },
    ])
    expect(enableRequestId).toBeTruthy()
    expect(disableRequestId).toBeTruthy()
    await context.close()
  })

  it("passes axe-core's WCAG 2.1 A and AA checks on the tenant page with its endpoints, at 1280 and 375 px without sideways scrolling", async () => {
    for (const viewport of [
      { width: 1280, height: 900 },
      { width: 375, height: 812 },
    ]) {
      const phone = viewport.width < 700
      receiver.answer(204) // (so an enabled endpoint stays enabled, whatever ran before)
      // axe is injected as a script: the console's own policy allows none but its files
      const context = await browser.newContext({ viewport, bypassCSP: true, isMobile: phone, hasTouch: phone })
      const page = await tenantPage(context)
      const problems: Record<string, unknown> = {}
      const check = async (view: string) => {
        const found = await axeViolations(page)
        if (found.length > 0) problems[`${view} axe`] = found
        const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')
        if (overflow > 0) problems[`${view} overflow`] = overflow
      }
      const row = page.getByRole('table', { name: 'Webhook endpoints' }).getByRole('row').filter({
        hasText: receiver.url,
      })
      // disabled: by the test above, or by Pinfold when this test runs alone
      await row.getByRole('button', { name: 'Enable', exact: true }).waitFor()
      await check('a disabled endpoint')
      await row.getByRole('button', { name: 'Enable', exact: true }).click()
      await row.getByRole('button', { name: 'Disable', exact: true }).click()
      await page.getByLabel('Reason (optional, shown to the tenant)').waitFor()
      await check('the disable form')
      if (phone) await page.screenshot({ path: join(ARTIFACTS, 'operator-tenant-webhooks-375.png'), fullPage: true })
      await page.getByRole('button', { name: 'Disable endpoint', exact: true }).click()
      await row.getByRole('button', { name: 'Enable', exact: true }).waitFor()
      await context.close()
      expect(problems, `${viewport.width} px`).toEqual({})
    }
  })
})
