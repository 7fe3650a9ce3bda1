import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises'
import type { Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { consoleAssetsDir } from '@pinfold/console'
import { createLexicalEmbedder } from '@pinfold/embedders'
import { startTestApi, type TestApi } from '@pinfold/testing/test-api'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { withConsole } from '../../src/console-site.js'
import { axeViolations, CHROMIUM, launchChromium } from '../support/browser.js'
import { serveOverHttp } from '../support/over-http.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { ARTIFACTS, expectAccessibleAtEverySize } from './browser-harness.js'

/**
 * The web console in a real browser (Debian's chromium, headless, driven by playwright-core)
 * against a real server: sign in, upload a file, a folder and a resumable (tus) file, see them
 * listed, open a private download link, rename, delete; at 1280 px and at a phone's 375 px.
 * Screenshots land in packages/console/test-artifacts/ (git-ignored).
 */

const consoleDir = fileURLToPath(new URL('../../../console/', import.meta.url))

const PLAIN_HTTP_HOST = 'pinfold.lan.test'

const TOKEN_KEY = 'pinfold.console.token'

interface FileList {
  data: { files: { id: string; name: string; cid: string; size: number; number_of_files: number }[] }
}

const PAY_TO = '0x1111111111111111111111111111111111111111'

const TEXTS = {
  'garden.txt': 'The garden needs watering: tomatoes and roses wilt in the summer heat.',
  'invoice.txt': 'Invoice 7731 for the bicycle repair, paid by card.',
  'cat.txt': 'Our cat sleeps on the sofa all afternoon and chases mice at night.',
}

/** Just above the SDK's 90 MiB threshold: the console sends it over tus. */
const LARGE_BYTES = 94_371_840 + 1024 * 1024

/** A page of `url`'s console, signed in with `token` by keyboard. */
async function signIn(context: BrowserContext, url: string, token: string): Promise<Page> {
  const page = await context.newPage()
  // a browser asking for / is sent to the console
  await page.goto(`${url}/`)
  expect(page.url()).toBe(`${url}/console/`)
  // by keyboard: the field is labelled, the button is reached by Tab
  await page.getByLabel('Token or API key').fill(token)
  await page.keyboard.press('Tab')
  await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.textContent')).toBe('Sign in')
  await page.keyboard.press('Enter')
  await page.getByRole('heading', { name: 'Files', level: 2 }).waitFor()
  // kept in this tab's session storage, never in the URL
  expect(await page.evaluate<string | null>(`sessionStorage.getItem('${TOKEN_KEY}')`)).toBe(token)
  expect(page.url()).not.toContain(token)
  return page
}

describe.skipIf(!CHROMIUM)('the web console in chromium', { timeout: 120_000 }, () => {
  let browser: Browser

  beforeAll(async () => {
    // the assets under test are those of the sources under test
    // (vitest's NODE_ENV=test would make Vite bundle React's development build)
    await promisify(execFile)(process.execPath, [join(consoleDir, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: consoleDir,
      env: { ...process.env, NODE_ENV: 'production' },
    })
    await mkdir(ARTIFACTS, { recursive: true })
    // a name for the loopback server that is not a secure context, as a LAN address over http is
    browser = await launchChromium([`--host-resolver-rules=MAP ${PLAIN_HTTP_HOST} 127.0.0.1`])
  }, 120_000)

  afterAll(() => browser?.close())

  describe('on pinfold serve', () => {
    let server: TestServer
    let token: string
    let work: string

    beforeAll(async () => {
      work = await mkdtemp(join(tmpdir(), 'pinfold-console-e2e-'))
      server = await startTestServer()
      token = await server.token()
    }, 120_000)

    afterAll(async () => {
      await server?.close()
      if (work) await rm(work, { recursive: true, force: true })
    })

    it('signs in, uploads a file, a folder and a large file, lists them, opens a download link, renames and deletes', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
      const page = await signIn(context, server.url, token)

      // views of routes other branches add appear exactly when the server answers them
      const hasKeys = (await server.api('/v3/pinata/keys')).status !== 404
      await expect.poll(() => page.getByRole('link', { name: 'API keys' }).count()).toBe(hasKeys ? 1 : 0)

      await page.getByRole('link', { name: 'Upload' }).click()
      await page.getByRole('heading', { name: 'Upload', level: 2 }).waitFor()
      await page.getByRole('radio', { name: 'Public' }).check()

      // one file
      await page.getByLabel('Choose files').setInputFiles({
        name: 'hello.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('hello from the console\n'),
      })
      const uploads = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem')
      const hello = uploads.filter({ hasText: 'hello.txt' })
      await hello.getByText('Uploaded').waitFor()
      expect(await hello.getByText('file, 23 B').count()).toBe(1)
      expect(await hello.getByRole('progressbar', { name: 'hello.txt' }).getAttribute('value')).toBe('100')

      // a folder: one CID for the tree
      const site = join(work, 'site')
      await mkdir(join(site, 'css'), { recursive: true })
      await writeFile(join(site, 'index.html'), '<h1>site</h1>')
      await writeFile(join(site, 'css', 'style.css'), 'h1{color:red}')
      await page.getByLabel('Choose a folder').setInputFiles(site)
      await uploads.filter({ hasText: 'site' }).getByText('Uploaded').waitFor()

      // a file over the SDK's threshold goes over tus; throttled so its progress can be seen and paused
      const large = join(work, 'large.bin')
      await sparseFile(large, LARGE_BYTES)
      const cdp = await context.newCDPSession(page)
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: 16 * 1024 * 1024,
      })
      await page.getByLabel('Choose files').setInputFiles(large)
      const largeRow = uploads.filter({ hasText: 'large.bin' })
      await largeRow.getByText('resumable (tus)').waitFor()
      // some bytes sent, at a measured speed, with the time left
      await largeRow.getByText(/\b[1-9]\d*% · [\d.]+ MiB of 91 MiB · [\d.]+ MiB\/s · \d+ s left/).waitFor()
      await page.screenshot({ path: join(ARTIFACTS, 'upload-progress-1280.png'), fullPage: true })
      await largeRow.getByRole('button', { name: 'Pause' }).click()
      await largeRow.getByText(/Paused at \d+%/).waitFor()
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: -1,
      })
      await largeRow.getByRole('button', { name: 'Resume' }).click()
      await largeRow.getByText('Uploaded').waitFor({ timeout: 90_000 })
      await page.screenshot({ path: join(ARTIFACTS, 'upload-done-1280.png'), fullPage: true })

      // all three listed
      await page.getByRole('link', { name: 'Files' }).click()
      const rows = page.getByRole('table').getByRole('row')
      for (const name of ['hello.txt', 'site', 'large.bin']) await rows.filter({ hasText: name }).waitFor()
      const listed = (await (await server.api('/v3/files/public')).json()) as FileList
      const byName = Object.fromEntries(listed.data.files.map((f) => [f.name, f]))
      expect(byName['large.bin']?.size).toBe(LARGE_BYTES)
      expect(byName.site?.number_of_files).toBeGreaterThan(1)
      await page.screenshot({ path: join(ARTIFACTS, 'files-1280.png'), fullPage: true })

      // filters: by name
      await page.getByLabel('Name starts with').fill('hel')
      await page.getByRole('button', { name: 'Search' }).click()
      await expect.poll(() => rows.count()).toBe(2) // the header and hello.txt
      await page.getByRole('button', { name: 'Clear' }).click()
      await rows.filter({ hasText: 'large.bin' }).waitFor()

      // details: a private download link, copied and opened
      await page.getByRole('button', { name: 'hello.txt' }).click()
      const details = page.getByRole('complementary', { name: 'hello.txt' })
      await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.id')).toBe('details-title')
      await details.getByLabel('Link valid for').selectOption({ label: '1 hour' })
      await details.getByRole('button', { name: 'Create download link' }).click()
      const link = await details.getByLabel('Signed link').inputValue()
      expect(link).toMatch(new RegExp(`^${server.url}/files/${byName['hello.txt']?.cid}\\?.*X-Signature=`))
      await details.getByRole('button', { name: 'Copy link' }).click()
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(link)
      await page.screenshot({ path: join(ARTIFACTS, 'file-details-1280.png'), fullPage: true })
      const [opened] = await Promise.all([
        context.waitForEvent('page'),
        details.getByRole('link', { name: 'Open link' }).click(),
      ])
      await opened.waitForLoadState()
      expect((await opened.locator('body').textContent())?.trim()).toBe('hello from the console')
      await opened.close()

      // rename, then delete
      await details.getByLabel('Name', { exact: true }).fill('greeting.txt')
      await details.getByRole('button', { name: 'Save name' }).click()
      await rows.filter({ hasText: 'greeting.txt' }).waitFor()
      const renamed = page.getByRole('complementary', { name: 'greeting.txt' })
      await renamed.getByRole('button', { name: 'Delete greeting.txt' }).click()
      await renamed.getByRole('button', { name: 'Yes, delete' }).click()
      await renamed.waitFor({ state: 'detached' })
      await rows.filter({ hasText: 'greeting.txt' }).waitFor({ state: 'detached' })
      const after = (await (await server.api('/v3/files/public')).json()) as FileList
      expect(after.data.files.map((f) => f.name).sort()).toEqual(['large.bin', 'site'])

      // signing out forgets the token
      await page.getByRole('button', { name: 'Sign out' }).click()
      await page.getByRole('heading', { name: 'Sign in' }).waitFor()
      expect(await page.evaluate<string | null>(`sessionStorage.getItem('${TOKEN_KEY}')`)).toBeNull()
      await context.close()
    })

    it('resumes a large upload where it stopped after the page is reloaded, and cancels one', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      const page = await signIn(context, server.url, token)
      const large = join(work, 'resumed.bin')
      await sparseFile(large, LARGE_BYTES)
      const throttle = async (bytesPerSecond: number) => {
        const cdp = await context.newCDPSession(page)
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: 0,
          downloadThroughput: -1,
          uploadThroughput: bytesPerSecond,
        })
      }
      await throttle(8 * 1024 * 1024)
      await page.getByRole('link', { name: 'Upload' }).click()
      await page.getByRole('radio', { name: 'Public' }).check()
      await page.getByLabel('Choose files').setInputFiles(large)
      // past the first 50 MiB chunk: the server holds it
      await page.getByText(/\b(5[6-9]|[6-9]\d)% · /).waitFor({ timeout: 60_000 })
      await page.reload()

      const requests: { method: string; offset: string | null }[] = []
      page.on('request', (request) => {
        if (request.url().startsWith(`${server.url}/v3/files/`) && ['HEAD', 'PATCH'].includes(request.method())) {
          requests.push({ method: request.method(), offset: request.headers()['upload-offset'] ?? null })
        }
      })
      // still signed in (the tab's session storage), and the same file chosen again resumes
      await page.getByRole('heading', { name: 'Upload', level: 2 }).waitFor()
      await page.getByRole('radio', { name: 'Public' }).check()
      await page.getByLabel('Choose files').setInputFiles(large)
      await page.getByText('Uploaded').waitFor({ timeout: 90_000 })
      expect(requests[0]?.method).toBe('HEAD')
      const firstPatch = requests.find((r) => r.method === 'PATCH')
      expect(Number(firstPatch?.offset)).toBeGreaterThanOrEqual(50 * 1024 * 1024)
      const listed = (await (await server.api('/v3/files/public?name=resumed.bin')).json()) as FileList
      expect(listed.data.files.map((f) => f.size)).toEqual([LARGE_BYTES])

      // cancelled: the server is told to drop it (tus termination) and no file appears
      const dropped = join(work, 'dropped.bin')
      await sparseFile(dropped, LARGE_BYTES)
      await throttle(8 * 1024 * 1024)
      await page.getByLabel('Choose files').setInputFiles(dropped)
      const row = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: 'dropped.bin' })
      await row.getByText(/\b[1-9]\d*% · /).waitFor()
      const terminated = page.waitForRequest((request) => request.method() === 'DELETE')
      await row.getByRole('button', { name: 'Cancel upload of dropped.bin' }).click()
      await row.getByText('Cancelled').waitFor()
      expect((await (await terminated).response())?.status()).toBe(204)
      const none = (await (await server.api('/v3/files/public?name=dropped.bin')).json()) as FileList
      expect(none.data.files).toEqual([])
      await context.close()
    })

    it('ends the session when the server refuses the token', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      // long enough to sign in on a loaded machine (3 s was not, at a load of 20), then waited out
      const expiresAt = Date.now() + 10_000
      const shortLived = await server.token({ expiresIn: '10s' })
      const page = await signIn(context, server.url, shortLived)
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 1500))
      await page.getByRole('link', { name: 'Groups' }).click()
      await page
        .getByRole('alert')
        .filter({ hasText: /^Signed out: / })
        .waitFor()
      await page.getByRole('heading', { name: 'Sign in' }).waitFor()
      expect(await page.evaluate<string | null>(`sessionStorage.getItem('${TOKEN_KEY}')`)).toBeNull()
      await context.close()
    })

    it('uploads privately unless Public is chosen, and says what public means', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      const page = await signIn(context, server.url, token)
      await page.getByRole('link', { name: 'Upload' }).click()
      await page.getByRole('heading', { name: 'Upload', level: 2 }).waitFor()
      expect(await page.getByRole('radio', { name: 'Private' }).isChecked()).toBe(true)
      expect(await page.getByRole('radio', { name: 'Public' }).isChecked()).toBe(false)
      // the choice is described where it is made, and read out with it
      const picker = page.getByRole('group', { name: 'Network' })
      const hint = page.locator(`#${await picker.getAttribute('aria-describedby')}`)
      expect(await hint.textContent()).toMatch(/Public files can be read by anyone who has their CID/)
      await page
        .getByLabel('Choose files')
        .setInputFiles({ name: 'by-default.txt', mimeType: 'text/plain', buffer: Buffer.from('mine') })
      await page.getByText('Uploaded').waitFor()
      const privately = (await (await server.api('/v3/files/private?name=by-default.txt')).json()) as FileList
      expect(privately.data.files.map((f) => f.name)).toEqual(['by-default.txt'])
      const publicly = (await (await server.api('/v3/files/public?name=by-default.txt')).json()) as FileList
      expect(publicly.data.files).toEqual([])
      await context.close()
    })

    it('copies on a plain-http address, where browsers have no async clipboard', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
      const lanUrl = server.url.replace('127.0.0.1', PLAIN_HTTP_HOST)
      const page = await signIn(context, lanUrl, token)
      expect(await page.evaluate<boolean>('window.isSecureContext')).toBe(false)
      await page.getByRole('link', { name: 'Upload' }).click()
      await page.getByRole('radio', { name: 'Public' }).check()
      await page
        .getByLabel('Choose files')
        .setInputFiles({ name: 'lan.txt', mimeType: 'text/plain', buffer: Buffer.from('x') })
      await page.getByText('Uploaded').waitFor()
      await page.getByRole('link', { name: 'Files' }).click()
      await page.getByRole('button', { name: 'lan.txt' }).click()
      const details = page.getByRole('complementary', { name: 'lan.txt' })
      await details.getByRole('button', { name: 'Copy CID' }).click()
      await details.getByRole('button', { name: 'Copied' }).waitFor()
      // read back where the clipboard can be read: a page of the secure origin
      const reader = await context.newPage()
      await reader.goto(`${server.url}/healthz`)
      const listed = (await (await server.api('/v3/files/public?name=lan.txt')).json()) as FileList
      expect(await reader.evaluate<string>('navigator.clipboard.readText()')).toBe(listed.data.files[0]?.cid)
      await context.close()
    })

    it("shows an expiring file's real expiry date (the server sends Unix seconds)", async () => {
      const body = new FormData()
      body.set('network', 'public')
      body.set('file', new Blob(['expires']), 'expiring.txt')
      const uploaded = (await (await server.api('/v3/files', { method: 'POST', body })).json()) as {
        data: { id: string }
      }
      // 2031-06-15T12:00:00Z: read as milliseconds it would be a date in January 1970
      const expiresAt = Date.UTC(2031, 5, 15, 12) / 1000
      const updated = await server.api(`/v3/files/public/${uploaded.data.id}`, {
        method: 'PUT',
        body: JSON.stringify({ expires_at: expiresAt }),
        headers: { 'content-type': 'application/json' },
      })
      expect(updated.status).toBe(200)

      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' })
      const page = await signIn(context, server.url, token)
      await page.getByRole('button', { name: 'expiring.txt' }).click()
      const details = page.getByRole('complementary', { name: 'expiring.txt' })
      const expires = details.locator('dt', { hasText: 'Expires' }).locator('xpath=following-sibling::dd[1]')
      const shown = await expires.textContent()
      expect(shown).toBe(await page.evaluate<string>(`new Date(${expiresAt * 1000}).toLocaleString()`))
      expect(shown).toContain('2031')
      await context.close()
    })

    it('works at a phone width (375 px)', async () => {
      const context = await browser.newContext({
        viewport: { width: 375, height: 812 },
        isMobile: true,
        hasTouch: true,
      })
      const page = await signIn(context, server.url, token)
      await page.screenshot({ path: join(ARTIFACTS, 'files-375.png'), fullPage: true })
      // nothing wider than the screen: no sideways scrolling
      const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')
      expect(await overflow()).toBeLessThanOrEqual(0)

      await page.getByRole('link', { name: 'Upload' }).tap()
      await page.getByRole('radio', { name: 'Public' }).tap()
      await page.getByLabel('Choose files').setInputFiles({
        name: 'phone.txt',
        mimeType: 'text/plain',
        buffer: Buffer.from('from a phone\n'),
      })
      await page.getByRole('list', { name: 'Uploads' }).getByText('Uploaded').waitFor()
      await page.screenshot({ path: join(ARTIFACTS, 'upload-375.png'), fullPage: true })
      expect(await overflow()).toBeLessThanOrEqual(0)

      await page.getByRole('link', { name: 'Files' }).tap()
      await page.getByRole('button', { name: 'phone.txt' }).tap()
      await page.getByRole('complementary', { name: 'phone.txt' }).waitFor()
      await page.screenshot({ path: join(ARTIFACTS, 'file-details-375.png'), fullPage: true })
      expect(await overflow()).toBeLessThanOrEqual(0)
      await context.close()
    })
  })

  describe('with a small embedder and x402 defaults', () => {
    let server: TestApi & { http: Server }
    let token: string

    beforeAll(async () => {
      // the default local embedder loads 300 MB of word vectors: a lexical one answers as the API does
      const api = await startTestApi({ storage: 'memory', embedder: createLexicalEmbedder(), payTo: PAY_TO })
      server = await serveOverHttp({ ...api, handler: withConsole(api.handler, { assetsDir: consoleAssetsDir }) })
      token = await server.token()
    }, 120_000)

    afterAll(() => server?.close())

    it('manages groups, keyvalues, vectors and semantic search, swaps and payment instructions', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
      const page = await signIn(context, server.url, token)

      // a private group
      await page.getByRole('link', { name: 'Groups' }).click()
      await page.getByRole('radio', { name: 'Private' }).check()
      await page.getByLabel('Name', { exact: true }).fill('notes')
      await page.getByRole('button', { name: 'Create group' }).click()
      await page.getByRole('listitem').filter({ hasText: 'notes' }).getByText('private').waitFor()
      await page.screenshot({ path: join(ARTIFACTS, 'groups-1280.png'), fullPage: true })

      // three texts into it, with a keyvalue
      await page.getByRole('link', { name: 'Upload' }).click()
      await page.getByRole('radio', { name: 'Private' }).check()
      await page.getByLabel('Group').selectOption({ label: 'notes' })
      await page.getByLabel('Keyvalues').fill('topic=home')
      await page
        .getByLabel('Choose files')
        .setInputFiles(
          Object.entries(TEXTS).map(([name, text]) => ({ name, mimeType: 'text/plain', buffer: Buffer.from(text) })),
        )
      const uploads = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem')
      await expect.poll(() => uploads.filter({ hasText: 'Uploaded' }).count()).toBe(3)

      // filters: group and keyvalue, then one CID
      await page.getByRole('link', { name: 'Files' }).click()
      await page.getByRole('radio', { name: 'Private' }).check()
      const rows = page.getByRole('table').getByRole('row')
      await expect.poll(() => rows.count()).toBe(4)
      const files = ((await (await server.api('/v3/files/private')).json()) as FileList).data.files
      const invoice = files.find((f) => f.name === 'invoice.txt')!
      const cat = files.find((f) => f.name === 'cat.txt')!
      await page.getByLabel('Group').selectOption({ label: 'notes' })
      await page.getByLabel('Keyvalues').fill('topic=home')
      await page.getByLabel('MIME type').fill('text/plain')
      await page.getByRole('button', { name: 'Search' }).click()
      await expect.poll(() => rows.count()).toBe(4)
      await page.getByLabel('Keyvalues').fill('topic=work')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.getByText('No files match.').waitFor()
      await page.getByLabel('Keyvalues').fill('')
      await page.getByLabel('CID').fill(invoice.cid)
      await page.getByRole('button', { name: 'Search' }).click()
      await expect.poll(() => rows.count()).toBe(2)

      // keyvalues edited in the details: one added, one removed
      await page.getByRole('button', { name: 'invoice.txt' }).click()
      const details = page.getByRole('complementary', { name: 'invoice.txt' })
      await details.getByRole('button', { name: 'Add keyvalue' }).click()
      await details.getByLabel('Key', { exact: true }).last().fill('paid')
      await details.getByLabel('Value', { exact: true }).last().fill('yes')
      await details.getByRole('button', { name: 'Remove keyvalue topic' }).click()
      await details.getByRole('button', { name: 'Save keyvalues' }).click()
      await details.getByText('Keyvalues saved.').waitFor()
      const edited = (await (await server.api(`/v3/files/private/${invoice.id}`)).json()) as {
        data: { keyvalues: Record<string, string> }
      }
      expect(edited.data.keyvalues).toEqual({ paid: 'yes' })

      // vectors: this one from its details, the others through the API; then a semantic search
      await details.getByRole('button', { name: 'Vectorize' }).click()
      await details.getByText('Vectorized.').waitFor()
      for (const file of files.filter((f) => f.id !== invoice.id)) {
        expect((await server.api(`/v3/vectorize/files/${file.id}`, { method: 'POST' })).status).toBe(200)
      }

      // a swap added and removed
      await details.getByLabel('Serve this CID as').fill(cat.cid)
      await details.getByRole('button', { name: 'Add swap' }).click()
      await details.getByText('Swap added.').waitFor()
      await details.getByRole('list', { name: 'Swap history, newest first' }).getByText(cat.cid).waitFor()
      await details.getByRole('button', { name: 'Remove swap' }).click()
      await details.getByText('Swap removed.').waitFor()
      const swapPath = `/v3/files/private/swap/${invoice.cid}`
      expect((await server.api(swapPath, { method: 'DELETE' })).status).toBe(404) // nothing left to remove

      await page.getByRole('link', { name: 'Search' }).click()
      await page.getByLabel('Query').fill('bicycle repair invoice')
      await page.getByRole('button', { name: 'Search' }).click()
      const matches = page.getByRole('list', { name: 'Matches' }).getByRole('listitem')
      await expect.poll(() => matches.first().textContent()).toContain(invoice.cid)
      expect(await matches.first().getByText('invoice.txt').count()).toBe(1)
      await page.screenshot({ path: join(ARTIFACTS, 'search-1280.png'), fullPage: true })

      // a payment instruction selling the invoice
      await page.getByRole('link', { name: 'Payments' }).click()
      await page.getByLabel('Name', { exact: true }).fill('paid notes')
      await page.getByLabel('Amount (USDC atomic units)').fill('10000')
      await page.getByRole('button', { name: 'Create instruction' }).click()
      const instruction = page.getByRole('listitem').filter({ hasText: 'paid notes' }).first()
      await instruction.getByText(PAY_TO).waitFor()
      await instruction.getByRole('button', { name: 'CIDs' }).click()
      await instruction.getByLabel('Add CID').fill(invoice.cid)
      await instruction.getByRole('button', { name: 'Add', exact: true }).click()
      await instruction.getByRole('button', { name: 'Copy paid URL' }).click()
      const paidUrl = await page.evaluate<string>('navigator.clipboard.readText()')
      expect(paidUrl).toBe(`${server.url}/v1/retrieve/private/${invoice.cid}`)
      expect((await fetch(paidUrl)).status).toBe(402) // for sale: a payment is required
      await page.screenshot({ path: join(ARTIFACTS, 'payments-1280.png'), fullPage: true })
      await instruction.getByRole('button', { name: `Remove ${invoice.cid}` }).click()
      await instruction.getByText('No CIDs yet.').waitFor()
      await instruction.getByRole('button', { name: 'Delete instruction paid notes' }).click()
      await instruction.getByRole('button', { name: 'Yes, delete' }).click()
      await page.getByText('No payment instructions.').waitFor()
      await context.close()
    })

    it("passes axe-core's WCAG 2.1 A and AA checks on every view, at 1280 and 375 px, with nothing wider than the screen", async () => {
      await expectAccessibleAtEverySize(browser, async ({ context, check }) => {
        const page = await context.newPage()
        await page.goto(`${server.url}/console/`)
        await check(page, 'sign in')
        await page.getByLabel('Token or API key').fill(token)
        await page.getByRole('button', { name: 'Sign in' }).click()
        await page.getByRole('radio', { name: 'Private' }).check()
        await page.getByRole('button', { name: 'garden.txt' }).click()
        await page.getByRole('complementary', { name: 'garden.txt' }).waitFor()
        await check(page, 'files with details')
        await page.getByRole('link', { name: 'Upload' }).click()
        await page
          .getByLabel('Choose files')
          .setInputFiles({ name: 'a11y.txt', mimeType: 'text/plain', buffer: Buffer.from('a') })
        await page.getByText('Uploaded').waitFor()
        await check(page, 'upload')
        await page.getByRole('link', { name: 'Groups' }).click()
        await page.getByRole('radio', { name: 'Private' }).check()
        await page.getByText('notes').first().waitFor()
        await check(page, 'groups')
        await page.getByRole('link', { name: 'Search' }).click()
        await page.getByLabel('Query').fill('cat')
        await page.getByRole('button', { name: 'Search' }).click()
        await page.getByRole('list', { name: 'Matches' }).waitFor()
        await check(page, 'search')
        await page.getByRole('link', { name: 'Payments' }).click()
        await page.getByRole('heading', { name: 'Payment instructions' }).waitFor()
        await check(page, 'payments')
      })
    })

    it('shows API keys and usage views when the server answers their routes', async () => {
      // This branch's server has neither route (the parity work adds them): the browser answers
      // them here, in the shapes the official SDK types, to show what the console does with them.
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true })
      const keys = [
        {
          id: 'k1',
          name: 'ci',
          key: 'a1b2c3',
          revoked: false,
          max_uses: 5,
          uses: 2,
          createdAt: new Date().toISOString(),
        },
      ]
      let created: unknown
      await context.route(/\/v3\/pinata\/keys/, async (route) => {
        const request = route.request()
        if (request.method() === 'POST') {
          created = request.postDataJSON()
          return route.fulfill({ json: { JWT: 'eyJ.new.key', pinata_api_key: 'd4e5', pinata_api_secret: 's' } })
        }
        return route.fulfill({ json: { keys } })
      })
      await context.route(/\/v3\/data\/userPinnedDataTotal$/, (route) =>
        route.fulfill({ json: { pin_count: 3, pin_size_total: 3 * 1024 * 1024, pin_size_with_replications_total: 0 } }),
      )
      await context.route(/\/v3\/ipfs\/gateway_analytics_time_series/, (route) =>
        route.fulfill({
          json: {
            data: {
              total_requests: 60,
              total_bandwidth: 6000,
              time_periods: [1, 2, 3].map((d) => ({
                period_start_time: `2026-11-0${d}T00:00:00Z`,
                requests: d * 10,
                bandwidth: d * 1000,
              })),
            },
          },
        }),
      )
      await context.route(/\/v3\/ipfs\/gateway_analytics_top/, (route) =>
        route.fulfill({ json: { data: [{ value: 'bafytopcid', requests: 42, bandwidth: 4200 }] } }),
      )
      const page = await signIn(context, server.url, token)

      await page.getByRole('link', { name: 'Usage' }).click()
      await page.getByRole('img', { name: /Gateway requests, last 30 days, 3 periods/ }).waitFor()
      await page.getByText('Gateway requests, last 30 days: 60 in all').waitFor()
      await page.getByRole('cell', { name: 'bafytopcid' }).waitFor()
      await page.screenshot({ path: join(ARTIFACTS, 'usage-1280.png'), fullPage: true })
      expect(await axeViolations(page)).toEqual([])

      await page.getByRole('link', { name: 'API keys' }).click()
      await page.getByText('2 of 5 uses').waitFor()
      await page.getByLabel('Name', { exact: true }).fill('deploys')
      await page.getByLabel('Maximum uses').fill('10')
      await page.getByRole('button', { name: 'Create key' }).click()
      expect(await page.getByLabel('JWT').inputValue()).toBe('eyJ.new.key')
      expect(created).toEqual({
        keyName: 'deploys',
        permissions: { resources: ['org:files:read', 'org:files:write'] },
        maxUses: 10,
      })
      await page.screenshot({ path: join(ARTIFACTS, 'keys-1280.png'), fullPage: true })
      expect(await axeViolations(page)).toEqual([])
      await context.close()
    })
  })
})

/** A file of `size` bytes without writing them all: zeros, as far as a reader can tell. */
async function sparseFile(path: string, size: number): Promise<void> {
  const handle = await open(path, 'w')
  await handle.truncate(size)
  await handle.close()
}
