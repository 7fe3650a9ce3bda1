import { execFile } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { form } from '@pinfold/testing/test-api'
import { CID } from 'multiformats/cid'
import * as raw from 'multiformats/codecs/raw'
import { sha256 } from 'multiformats/hashes/sha2'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, launchChromium } from '../support/browser.js'
import { requestWithHost } from '../support/raw-http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { ARTIFACTS, expectAccessibleAtEverySize, signIn } from './browser-harness.js'

/**
 * A tenant's own gateway deny rules in the console, in a real browser against one real server: the
 * empty state says what a rule does; a bad line gets the server's 400 under the field (and changes
 * nothing); a rule added through the form makes the tenant's own gateway name answer 410 for that
 * CID while another tenant's gateway name and the shared gateway still serve it; the list pages (20
 * rules a page; the page of a new rule shown); a rule removed after a confirmation is served again.
 * Another tenant's view shows none of it. axe-core's WCAG 2.1 A/AA checks with no sideways scrolling
 * at 1280 and 375 px. Screenshots land in packages/console/test-artifacts/ as `gateway-deny-rules-*`.
 */

const consoleDir = fileURLToPath(new URL('../../../console/', import.meta.url))
const GATEWAY_DOMAIN = 'gw.pinfold.test'

async function openDenyRules(page: Page): Promise<void> {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Deny rules' }).click()
  await page.getByRole('heading', { name: 'Gateway deny rules', level: 2 }).waitFor()
}

/** A CIDv1 of some bytes nobody stored: a rule's target that needs no upload. */
async function cidOf(text: string): Promise<string> {
  return CID.createV1(raw.code, await sha256.digest(new TextEncoder().encode(text))).toString()
}

describe.skipIf(!CHROMIUM)('the console’s gateway deny rules in chromium', { timeout: 120_000 }, () => {
  let browser: Browser
  let server: TestServer
  let acme: string
  let globex: string
  /** Public content both tenants uploaded: one CID on every gateway. */
  let cid: string

  const gatewayStatus = async (host: string) => (await requestWithHost(server.url, host, `/ipfs/${cid}`)).status
  const listed = async (org: string) => {
    const res = await server.api('/v3/gateways/deny_rules', { org })
    expect(res.status).toBe(200)
    return ((await res.json()) as { data: { rules: { rule: string }[] } }).data.rules.map((r) => r.rule)
  }

  beforeAll(async () => {
    await promisify(execFile)(process.execPath, [join(consoleDir, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: consoleDir,
      env: { ...process.env, NODE_ENV: 'production' },
    })
    await mkdir(ARTIFACTS, { recursive: true })
    server = await startTestServer({ PINFOLD_GATEWAY_DOMAIN: GATEWAY_DOMAIN }, { storage: 'memory' })
    acme = await server.token({ org: 'acme' })
    globex = await server.token({ org: 'globex' })
    for (const org of ['acme', 'globex']) {
      const uploaded = await server.api('/v3/files', {
        method: 'POST',
        body: form({ network: 'public' }, { bytes: 'a page both tenants publish', name: 'page.txt' }),
        org,
      })
      expect(uploaded.status).toBe(200)
      cid = ((await uploaded.json()) as { data: { cid: string } }).data.cid
      // a dedicated gateway name is active at once: {org}.gw.pinfold.test serves the tenant's content
      const name = await server.api('/v3/gateways/domains', {
        method: 'POST',
        body: JSON.stringify({ name: org }),
        org,
      })
      expect(name.status).toBe(201)
    }
    browser = await launchChromium()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('adds a rule through the form (a bad one’s 400 shown first), which the tenant’s gateway obeys alone; pages; removes it after a confirmation', async () => {
    expect(await gatewayStatus(`acme.${GATEWAY_DOMAIN}`)).toBe(200)
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const page = await signIn(context, server.url, acme)
    await openDenyRules(page)
    await page.getByText('No deny rules yet: your gateways serve every CID they can find.').waitFor()
    await page.getByText(/answer 410 Gone for that content/).waitFor()

    // a bad line: the server's reason under the field, read with it; nothing stored
    const field = page.getByLabel('Rule', { exact: true })
    await field.fill('/ipfs/not-a-cid')
    await page.getByRole('button', { name: 'Add rule' }).click()
    const alert = page.getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/rule/)
    expect(await field.getAttribute('aria-invalid')).toBe('true')
    expect(await field.getAttribute('aria-describedby')).toContain(await alert.getAttribute('id'))
    expect(await listed('acme')).toEqual([])

    // twenty rules already there (through the API): the form's rule is the 21st, on page 2
    for (let i = 0; i < 20; i++) {
      const added = await server.api('/v3/gateways/deny_rules', {
        method: 'POST',
        body: JSON.stringify({ rule: `/ipfs/${await cidOf(`rule ${i}`)}` }),
        org: 'acme',
      })
      expect(added.status).toBe(201)
    }
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Gateways' }).click()
    await openDenyRules(page)
    const pager = page.getByRole('navigation', { name: 'Pages' })
    await pager.getByText('1–20 of 20').waitFor()
    const table = page.getByRole('table', { name: 'Your gateways’ deny rules' })
    expect(await table.getByRole('row').count()).toBe(21) // the header and 20

    await field.fill(`/ipfs/${cid}`)
    await page.getByRole('button', { name: 'Add rule' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: `Added /ipfs/${cid}` })
      .waitFor()
    await pager.getByText('21–21 of 21').waitFor()
    const row = table.getByRole('row').filter({ hasText: `/ipfs/${cid}` })
    expect((await row.getByRole('cell').allTextContents()).slice(0, 2)).toEqual(['21', `/ipfs/${cid}`])
    expect(await page.getByRole('alert').count()).toBe(0)
    expect(await field.getAttribute('aria-invalid')).toBeNull()

    // refused on acme's gateway alone
    expect(await gatewayStatus(`acme.${GATEWAY_DOMAIN}`)).toBe(410)
    expect(await gatewayStatus(`globex.${GATEWAY_DOMAIN}`)).toBe(200)
    expect((await server.fetch(`${server.url}/ipfs/${cid}`)).status).toBe(200)
    await page.screenshot({ path: join(ARTIFACTS, 'gateway-deny-rules-1280.png'), fullPage: true })

    // back and forth between the pages
    await pager.getByRole('button', { name: 'Previous' }).click()
    await pager.getByText('1–20 of 21').waitFor()
    expect(await row.count()).toBe(0)
    await pager.getByRole('button', { name: 'Next' }).click()
    await row.waitFor()
    expect(await pager.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true)

    // removed after a confirmation ("Keep it" keeps it): served again; the emptied page gives way to page 1
    await row.getByRole('button', { name: `Remove /ipfs/${cid}` }).click()
    await page.getByRole('button', { name: 'Keep it' }).click()
    expect(await listed('acme')).toContain(`/ipfs/${cid}`)
    await row.getByRole('button', { name: `Remove /ipfs/${cid}` }).click()
    await page.getByRole('button', { name: 'Yes, remove' }).click()
    await page
      .getByRole('status')
      .filter({ hasText: `Removed /ipfs/${cid}.` })
      .waitFor()
    await pager.getByText('1–20 of 20').waitFor()
    expect(await listed('acme')).not.toContain(`/ipfs/${cid}`)
    expect(await gatewayStatus(`acme.${GATEWAY_DOMAIN}`)).toBe(200)

    // another tenant sees none of acme's rules
    const theirs = await signIn(context, server.url, globex)
    await openDenyRules(theirs)
    await theirs.getByText('No deny rules yet: your gateways serve every CID they can find.').waitFor()
    expect(await theirs.getByRole('table').count()).toBe(0)
    await context.close()
  })

  it("passes axe-core's WCAG 2.1 A and AA checks on the deny rules (a page of rules with an error, and the empty state), at 1280 and 375 px, with nothing wider than the screen", async () => {
    await expectAccessibleAtEverySize(browser, async ({ context, check, shot }) => {
      const page = await signIn(context, server.url, acme)
      await openDenyRules(page)
      await page.getByRole('navigation', { name: 'Pages' }).waitFor()
      await page.getByLabel('Rule', { exact: true }).fill('/ipfs/nope')
      await page.getByRole('button', { name: 'Add rule' }).click()
      await page.getByRole('alert').waitFor()
      await check(page, 'deny rules with an error')
      await shot(page, 'gateway-deny-rules')
      const empty = await signIn(context, server.url, globex)
      await openDenyRules(empty)
      await empty.getByText('No deny rules yet: your gateways serve every CID they can find.').waitFor()
      await check(empty, 'deny rules, none yet')
    })
  })
})
