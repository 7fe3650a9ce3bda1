import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, open, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'

/**
 * The web console in a real browser (Debian's chromium, headless, driven by playwright-core)
 * against a real server: sign in, upload a file, a folder and a resumable (tus) file, see them
 * listed, open a private download link, rename, delete; at 1280 px and at a phone's 375 px.
 * Screenshots land in packages/console/test-artifacts/ (git-ignored).
 */

const consoleDir = fileURLToPath(new URL('../../../console/', import.meta.url))
export const ARTIFACTS = join(consoleDir, 'test-artifacts')

const CHROMIUM = [process.env.PINFOLD_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
)
// CI installs chromium and sets PINFOLD_REQUIRE_CHROMIUM; elsewhere a machine without it skips.
if (!CHROMIUM && process.env.PINFOLD_REQUIRE_CHROMIUM) throw new Error('chromium not found (PINFOLD_CHROMIUM)')

const TOKEN_KEY = 'pinfold.console.token'

interface FileList {
  data: { files: { name: string; cid: string; size: number; number_of_files: number }[] }
}

/** Just above the SDK's 90 MiB threshold: the console sends it over tus. */
const LARGE_BYTES = 94_371_840 + 1024 * 1024

describe.skipIf(!CHROMIUM)('the web console in chromium', { timeout: 120_000 }, () => {
  let server: TestServer
  let browser: Browser
  let token: string
  let work: string

  beforeAll(async () => {
    // the assets under test are those of the sources under test
    await promisify(execFile)(process.execPath, [join(consoleDir, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: consoleDir,
    })
    await mkdir(ARTIFACTS, { recursive: true })
    work = await mkdtemp(join(tmpdir(), 'pinfold-console-e2e-'))
    ;[server, browser] = await Promise.all([
      startTestServer(),
      chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] }),
    ])
    token = await server.token()
  }, 120_000)

  afterAll(async () => {
    await browser?.close()
    await server?.close()
    if (work) await rm(work, { recursive: true, force: true })
  })

  async function signIn(context: BrowserContext): Promise<Page> {
    const page = await context.newPage()
    // a browser asking for / is sent to the console
    await page.goto(`${server.url}/`)
    expect(page.url()).toBe(`${server.url}/console/`)
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

  it('signs in, uploads a file, a folder and a large file, lists them, opens a download link, renames and deletes', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
    const page = await signIn(context)

    // views of routes other branches add appear exactly when the server answers them
    const hasKeys = (await server.api('/v3/pinata/keys')).status !== 404
    await expect.poll(() => page.getByRole('link', { name: 'API keys' }).count()).toBe(hasKeys ? 1 : 0)

    await page.getByRole('link', { name: 'Upload' }).click()
    await page.getByRole('heading', { name: 'Upload', level: 2 }).waitFor()

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
    await renamed.getByRole('button', { name: 'Delete file' }).click()
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

  it('works at a phone width (375 px)', async () => {
    const context = await browser.newContext({ viewport: { width: 375, height: 812 }, isMobile: true, hasTouch: true })
    const page = await signIn(context)
    await page.screenshot({ path: join(ARTIFACTS, 'files-375.png'), fullPage: true })
    // nothing wider than the screen: no sideways scrolling
    const overflow = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')
    expect(await overflow()).toBeLessThanOrEqual(0)

    await page.getByRole('link', { name: 'Upload' }).tap()
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

/** A file of `size` bytes without writing them all: zeros, as far as a reader can tell. */
async function sparseFile(path: string, size: number): Promise<void> {
  const handle = await open(path, 'w')
  await handle.truncate(size)
  await handle.close()
}
