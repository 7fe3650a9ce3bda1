import { execFile } from 'node:child_process'
import { mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations, CHROMIUM, launchChromium } from '../support/browser.js'
import { startTestServer, type TestServer } from '../support/server.js'

/**
 * The API reference at `/docs` in a real browser (Debian's chromium, headless, playwright-core)
 * against a real server: Scalar's viewer served by the server itself, the operations listed, an
 * operation's curl example, a "try it" request with a token answered 200, readable contrast (axe),
 * nothing fetched from anywhere but the server; at the root and under a base path. Screenshots land
 * in packages/console/test-artifacts/ (git-ignored).
 */

const consoleDir = fileURLToPath(new URL('../../../console/', import.meta.url))
const ARTIFACTS = join(consoleDir, 'test-artifacts')

/** What the page asked for, and what the browser refused or reported. */
function watch(page: Page) {
  const seen = { urls: [] as string[], problems: [] as string[] }
  page.on('request', (request) => seen.urls.push(request.url()))
  page.on('console', (message) => {
    if (message.type() === 'error' || /Content Security Policy/i.test(message.text())) {
      seen.problems.push(message.text())
    }
  })
  page.on('pageerror', (error) => seen.problems.push(error.message))
  return seen
}

const sidebar = (page: Page) => page.getByRole('navigation', { name: /^Sidebar/ })

/** A tag's group in the sidebar (a button that opens or closes it). */
const tagGroup = (page: Page, tag: string) =>
  sidebar(page).getByRole('button', { name: new RegExp(`^${tag} (Open|Close) Group$`) })

/** An operation's entry in the sidebar (named by its summary and method). */
const operationLink = (page: Page, summary: string) =>
  sidebar(page)
    .getByRole('button', { name: new RegExp(`^${summary} HTTP Method`) })
    .first()

/** Opens a tag in the sidebar (unless open) and an operation of it: its section, with its code sample. */
async function openOperation(page: Page, tag: string, summary: string) {
  const link = operationLink(page, summary)
  if (!(await link.isVisible()))
    await sidebar(page)
      .getByRole('button', { name: `${tag} Open Group` })
      .click()
  await link.click()
  return page.locator('section', { has: page.getByRole('heading', { name: summary, exact: true }) }).last()
}

/** "Test Request" of an operation, the token typed into the viewer's bearer field, sent. */
async function tryIt(page: Page, section: ReturnType<Page['locator']>, token: string) {
  await section.getByRole('button', { name: /^Test Request/ }).click()
  const client = page.getByRole('dialog')
  await client.getByPlaceholder('Token').fill(token)
  const [response] = await Promise.all([
    page.waitForResponse((response) => response.request().headers().authorization !== undefined),
    client.getByRole('button', { name: 'Send' }).first().click(),
  ])
  await client.getByText('200 OK').waitFor()
  return { client, response }
}

describe.skipIf(!CHROMIUM)('the API reference in chromium', { timeout: 60_000 }, () => {
  let browser: Browser
  let server: TestServer
  let token: string

  beforeAll(async () => {
    // the viewer under test is the one the console's build ships (a copy of Scalar's bundle)
    await promisify(execFile)(process.execPath, [join(consoleDir, 'scripts/copy-api-reference.mjs')])
    await mkdir(ARTIFACTS, { recursive: true })
    browser = await launchChromium()
    server = await startTestServer({}, { storage: 'memory' })
    token = await server.token()
    const form = new FormData()
    form.append('file', new Blob(['hello from the API reference\n'], { type: 'text/plain' }), 'docs-hello.txt')
    form.append('network', 'public')
    expect((await server.api('/v3/files', { method: 'POST', body: form })).status).toBe(200)
  }, 60_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  it('lists the operations, shows a curl example, tries a request with a token, and is readable', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const seen = watch(page)
    await page.goto(`${server.url}/docs`)
    await page.getByRole('heading', { name: 'Pinfold', level: 1 }).waitFor()
    // every tag of the document in the sidebar
    for (const tag of ['Files', 'Groups', 'Uploads', 'Gateways', 'Payments', 'Vectors']) {
      await tagGroup(page, tag).waitFor()
    }
    await page.screenshot({ path: join(ARTIFACTS, 'docs-1280.png') })
    expect((await axeViolations(page)).filter((v) => v.id === 'color-contrast')).toEqual([])

    const upload = await openOperation(page, 'Files', 'Upload a file')
    for (const summary of ['List files', 'Get a file', 'Update a file', 'Delete a file']) {
      await operationLink(page, summary).waitFor()
    }
    const example = upload.getByText(/^curl /).first()
    await example.waitFor()
    const code = (await example.locator('xpath=ancestor::code[1]').textContent()) ?? ''
    // the URL quoted or not, as Scalar's releases differ
    expect(code).toMatch(new RegExp(`curl '?${server.url.replaceAll('.', '\\.')}/v3/files`))
    expect(code).toContain('--request POST')
    expect(code).toContain("--header 'Authorization: Bearer")
    expect(code).toContain("--form 'file=")
    await page.screenshot({ path: join(ARTIFACTS, 'docs-upload-a-file-1280.png') })
    expect((await axeViolations(page)).filter((v) => v.id === 'color-contrast')).toEqual([])

    const list = await openOperation(page, 'Files', 'List files')
    const { client, response } = await tryIt(page, list, token)
    expect(response.url()).toMatch(new RegExp(`^${server.url}/v3/files/public`))
    expect(response.status()).toBe(200)
    expect(response.request().headers().authorization).toBe(`Bearer ${token}`)
    await client.getByText('docs-hello.txt').first().waitFor()
    await page.screenshot({ path: join(ARTIFACTS, 'docs-try-it-1280.png') })
    expect((await axeViolations(page)).filter((v) => v.id === 'color-contrast')).toEqual([])

    // nothing from a CDN, a font host or a proxy; nothing the page's policy had to refuse
    expect(seen.urls.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith('data:'))).toEqual([])
    expect(seen.problems).toEqual([])
    await page.close()
  })

  describe('under a base path', () => {
    let mounted: TestServer

    beforeAll(async () => {
      mounted = await startTestServer({}, { storage: 'memory', basePath: '/pinfold' })
    }, 60_000)

    afterAll(() => mounted?.close())

    it('loads the viewer and the document relatively and tries requests against the mounted API', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
      const seen = watch(page)
      await page.goto(`${mounted.url}/pinfold/docs`)
      await page.getByRole('heading', { name: 'Pinfold', level: 1 }).waitFor()
      expect(seen.urls).toContain(`${mounted.url}/pinfold/docs/viewer/standalone.js`)
      expect(seen.urls).toContain(`${mounted.url}/pinfold/openapi.json`)

      const check = await openOperation(page, 'Auth', 'Check a token')
      const { response } = await tryIt(page, check, await mounted.token())
      expect(response.url()).toMatch(new RegExp(`^${mounted.url}/pinfold/(v3/)?data/testAuthentication$`))
      expect(response.status()).toBe(200)
      await page.screenshot({ path: join(ARTIFACTS, 'docs-base-path-try-it-1280.png') })
      expect(seen.urls.filter((url) => !url.startsWith(`${mounted.url}/pinfold/`))).toEqual([])
      expect(seen.problems).toEqual([])
      await page.close()
    })
  })
})
