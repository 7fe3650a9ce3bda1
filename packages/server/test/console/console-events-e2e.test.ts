import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { form } from '@pinfold/testing/test-api'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { Webhook } from 'standardwebhooks'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CHROMIUM, launchChromium } from '../support/browser.js'
import { startTestServer, type TestServer } from '../support/server.js'
import { type ReceivedWebhook, startWebhookReceiver } from '../support/webhook-receiver.js'
import { ARTIFACTS, expectAccessibleAtEverySize, signIn } from './browser-harness.js'

/**
 * The console's event views and the file list as a drop target, in a real browser (Debian's
 * chromium, headless, driven by playwright-core) against one real server: files and a folder dropped
 * on the file list go up into the network and group it shows, with the upload view's progress; the
 * audit log shows the events of what was just done (uploads, a delete, a key created) with the
 * request ids the browser's requests were answered with, filters by type and time, and pages; a
 * webhook endpoint registered against a real receiver (node:http on loopback) shows its secret once,
 * and its deliveries (a 500 retried, then delivered; a test event), each verified by the
 * `standardwebhooks` library with the secret the page showed; a WebM video (recorded in the page by
 * the browser's own MediaRecorder) plays in its preview. axe-core's WCAG 2.1 A/AA checks and no
 * sideways scrolling at 1280 and 375 px. Screenshots land in packages/console/test-artifacts/.
 */

const consoleDir = fileURLToPath(new URL('../../../console/', import.meta.url))

interface FileRecord {
  id: string
  name: string
  cid: string
  group_id: string | null
  number_of_files: number
  mime_type: string
}

interface AuditEvent {
  type: string
  actor: { kind: string; id: string }
  request_id: string | null
  target: { kind: string; id: string }
  data: Record<string, unknown>
}

/**
 * Every message the page logs as an error (a failed request is one) and the requests answered with
 * an error status, to tell which request a logged failure was.
 */
function watchConsole(page: Page): { errors: string[]; failed: string[] } {
  const state = { errors: [] as string[], failed: [] as string[] }
  page.on('console', (message) => {
    if (message.type() === 'error') state.errors.push(message.text())
  })
  page.on('pageerror', (error) => state.errors.push(error.message))
  page.on('response', (response) => {
    if (response.status() >= 400) {
      state.failed.push(`${response.request().method()} ${new URL(response.url()).pathname} ${response.status()}`)
    }
  })
  return state
}

/** The element files are dropped on: the list's table, or the list's area while it has none. */
const LIST = `document.querySelector('.drop-target table') ?? document.querySelector('.drop-target')`

/** Drops text files on the file list as a desktop drag does, with a DataTransfer made in the page. */
async function dropOnList(page: Page, files: { name: string; text: string }[]): Promise<void> {
  await page.locator('.drop-target').waitFor()
  // the page's code, written as text: this package's types have no DOM
  await page.evaluate(`(() => {
    const target = ${LIST}
    const transfer = new DataTransfer()
    for (const { name, text } of ${JSON.stringify(files)}) transfer.items.add(new File([text], name, { type: 'text/plain' }))
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }))
    }
  })()`)
}

/**
 * Drops a folder of the disk on the file list through the browser's own drag and drop (the
 * debugging protocol's drag events carry file paths, as the operating system's drag does).
 */
async function dropFolderOnList(page: Page, context: BrowserContext, path: string): Promise<void> {
  const box = (await page.locator('.drop-target table').boundingBox())!
  const cdp = await context.newCDPSession(page)
  const at = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
  const data = { items: [], files: [path], dragOperationsMask: 1 }
  for (const type of ['dragEnter', 'dragOver', 'drop'] as const) {
    await cdp.send('Input.dispatchDragEvent', { type, ...at, data })
  }
  await cdp.detach()
}

/**
 * Records about a second of a 64×48 animation with the browser's own MediaRecorder (VP8 in WebM,
 * a format chromium plays) and drops it on the file list as `name`.
 */
async function dropRecordedVideo(page: Page, name: string): Promise<number> {
  await page.locator('.drop-target').waitFor()
  return page.evaluate<number>(`(async () => {
    const canvas = document.createElement('canvas')
    canvas.width = 64
    canvas.height = 48
    const paint = canvas.getContext('2d')
    let frame = 0
    const draw = () => {
      paint.fillStyle = frame++ % 2 ? '#1d4ed8' : '#f59e0b'
      paint.fillRect(0, 0, 64, 48)
    }
    draw()
    const timer = setInterval(draw, 40)
    const recorder = new MediaRecorder(canvas.captureStream(25), { mimeType: 'video/webm;codecs=vp8' })
    const chunks = []
    recorder.ondataavailable = (event) => chunks.push(event.data)
    recorder.start()
    await new Promise((resolve) => setTimeout(resolve, 1000))
    await new Promise((resolve) => {
      recorder.onstop = resolve
      recorder.stop()
    })
    clearInterval(timer)
    const video = new File(chunks, ${JSON.stringify(name)}, { type: 'video/webm' })
    const transfer = new DataTransfer()
    transfer.items.add(video)
    const target = ${LIST}
    for (const type of ['dragenter', 'dragover', 'drop']) {
      target.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true }))
    }
    return video.size
  })()`)
}

/** What the `standardwebhooks` library makes of a received request with `secret`: the payload, or a throw. */
function verified(secret: string, request: ReceivedWebhook) {
  const headers = Object.fromEntries(
    ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((name) => [name, String(request.headers[name])]),
  )
  return new Webhook(secret).verify(request.body, headers) as {
    type: string
    data: { event_id?: string; target?: { kind: string; id: string } }
  }
}

/** `datetime-local`'s text for a moment, in UTC (the browser contexts run in UTC). */
const localInput = (at: Date) => at.toISOString().slice(0, 16)

describe.skipIf(!CHROMIUM)(
  'the console’s audit log, webhooks, drops on the file list and video preview, in chromium',
  {
    timeout: 180_000,
  },
  () => {
    let browser: Browser
    let server: TestServer
    let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>
    let token: string
    let work: string

    const apiData = async <T>(path: string): Promise<T> => {
      const res = await server.api(path)
      expect(res.status).toBe(200)
      return ((await res.json()) as { data: T }).data
    }
    const files = async (network: 'public' | 'private') =>
      (await apiData<{ files: FileRecord[] }>(`/v3/files/${network}?limit=100`)).files
    const byName = async (network: 'public' | 'private', name: string) =>
      (await files(network)).find((file) => file.name === name)
    const upload = async (name: string, text: string) => {
      const res = await server.api('/v3/files', {
        method: 'POST',
        body: form({ network: 'public' }, { bytes: text, name }),
      })
      expect(res.status).toBe(200)
      return ((await res.json()) as { data: FileRecord }).data
    }

    beforeAll(async () => {
      await promisify(execFile)(process.execPath, [join(consoleDir, 'node_modules/vite/bin/vite.js'), 'build'], {
        cwd: consoleDir,
        env: { ...process.env, NODE_ENV: 'production' },
      })
      await mkdir(ARTIFACTS, { recursive: true })
      work = await mkdtemp(join(tmpdir(), 'pinfold-console-events-'))
      // the first delivery is answered 500, so the page shows a retry waiting; the rest 204
      receiver = await startWebhookReceiver([500])
      server = await startTestServer(
        {
          // the receiver is on loopback, which endpoints may reach only when the operator allows it
          PINFOLD_WEBHOOK_ALLOW_PRIVATE: 'true',
          PINFOLD_WEBHOOK_POLL_MS: '100',
          // a retry 3 to 6 s after the 500: long enough to be seen waiting, short enough to wait for
          PINFOLD_WEBHOOK_RETRY_BASE_MS: '6000',
        },
        { storage: 'memory' },
      )
      token = await server.token()
      browser = await launchChromium()
    }, 120_000)

    afterAll(async () => {
      await browser?.close()
      await server?.close()
      await receiver?.close()
      if (work) await rm(work, { recursive: true, force: true })
    })

    it('uploads files and a folder dropped on the file list into its network and group; the audit log shows them, a delete and a key, by type and time, in pages', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, timezoneId: 'UTC' })
      const page = await signIn(context, server.url, token)
      const seen = watchConsole(page)
      const docs = (
        (await (
          await server.api('/v3/groups/private', { method: 'POST', body: JSON.stringify({ name: 'docs' }) })
        ).json()) as { data: { id: string } }
      ).data

      // two files dropped on the private list: the upload view's progress rows, then the list shows them
      await page.getByRole('radio', { name: 'Private' }).check()
      await page.getByText('No files match.').waitFor()
      await page.getByText('Drop files or folders on the list to upload them to the private network.').waitFor()
      await dropOnList(page, [
        { name: 'alpha.txt', text: 'alpha words\n' },
        { name: 'beta.txt', text: 'beta words\n' },
      ])
      const uploads = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem')
      await expect.poll(() => uploads.filter({ hasText: 'Uploaded' }).count()).toBe(2)
      const rows = page.getByRole('table').getByRole('row')
      for (const name of ['alpha.txt', 'beta.txt']) await rows.filter({ hasText: name }).waitFor()
      expect((await byName('private', 'alpha.txt'))?.group_id).toBeNull()

      // the list filtered to a group: a file dropped on it goes into that group
      await page.getByRole('form', { name: 'Filter files' }).getByLabel('Group').selectOption({ label: 'docs' })
      await page.getByRole('button', { name: 'Search' }).click()
      await page
        .getByText('Drop files or folders on the list to upload them to the private network, into the group docs.')
        .waitFor()
      await dropOnList(page, [{ name: 'in-docs.txt', text: 'filed under docs\n' }])
      await rows.filter({ hasText: 'in-docs.txt' }).waitFor()
      expect((await byName('private', 'in-docs.txt'))?.group_id).toBe(docs.id)
      await page.getByRole('button', { name: 'Clear', exact: true }).click()

      // a folder of the disk dropped on the list: one CID, its inner paths kept
      const album = join(work, 'album')
      await mkdir(join(album, 'notes'), { recursive: true })
      await writeFile(join(album, 'cover.txt'), 'the cover')
      await writeFile(join(album, 'notes', 'one.txt'), 'note one')
      await rows.filter({ hasText: 'alpha.txt' }).waitFor()
      await dropFolderOnList(page, context, album)
      await uploads.filter({ hasText: 'folder of 2 files' }).getByText('Uploaded').waitFor()
      await rows.filter({ hasText: 'album' }).waitFor()
      await page.screenshot({ path: join(ARTIFACTS, 'files-drop-1280.png'), fullPage: true })
      expect((await byName('private', 'album'))?.number_of_files).toBeGreaterThanOrEqual(2)
      await page.getByRole('button', { name: 'Clear finished uploads' }).click()
      await page.getByRole('list', { name: 'Uploads' }).waitFor({ state: 'detached' })

      // a delete and a key: the request ids their answers carried, to find in the log
      await page.getByRole('button', { name: 'beta.txt', exact: true }).click()
      const details = page.getByRole('complementary', { name: 'beta.txt' })
      await details.getByRole('button', { name: 'Delete beta.txt' }).click()
      const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE')
      await details.getByRole('button', { name: 'Yes, delete' }).click()
      const deleteRequestId = (await deleted).headers()['x-request-id']!
      await rows.filter({ hasText: 'beta.txt' }).waitFor({ state: 'detached' })
      await page.getByRole('link', { name: 'API keys' }).click()
      await page.getByLabel('Name').fill('ci-key')
      const keyAnswer = page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().endsWith('/v3/pinata/keys'),
      )
      await page.getByRole('button', { name: 'Create key' }).click()
      const keyRequestId = (await keyAnswer).headers()['x-request-id']!
      await page.getByText('Copy the JWT now').waitFor()

      // the audit log: the newest first, as the API lists them, with actor, target and request id
      await page.getByRole('link', { name: 'Audit log' }).click()
      await page.getByRole('heading', { name: 'Audit log', level: 2 }).waitFor()
      const log = page.getByRole('table', { name: 'Audit log events' })
      const entries = log.getByRole('row').filter({ has: page.getByRole('cell') })
      const cell = (row: number, column: string) =>
        entries.nth(row).locator(`td[data-label="${column}"]`).textContent() as Promise<string>
      const events = (await apiData<{ events: AuditEvent[] }>('/v3/audit/events')).events
      expect(events.map((event) => event.type)).toEqual([
        'key.created',
        'file.deleted',
        'file.created',
        'file.created',
        'file.created',
        'file.created',
        'group.created',
      ])
      await expect.poll(() => entries.count()).toBe(events.length)
      expect(await log.locator('td[data-label="Type"]').allTextContents()).toEqual(events.map((event) => event.type))
      expect(await cell(0, 'Actor')).toBe('User alice')
      expect(await cell(0, 'Target')).toBe(`key ${events[0]!.target.id}`)
      expect(await cell(0, 'Request id')).toBe(keyRequestId)
      expect(await cell(0, 'Details')).toContain('name: ci-key')
      expect(await cell(1, 'Request id')).toBe(deleteRequestId)
      expect(await cell(1, 'Details')).toContain('name: beta.txt')
      expect(events[1]!.request_id).toBe(deleteRequestId)
      await page.screenshot({ path: join(ARTIFACTS, 'audit-log-1280.png'), fullPage: true })

      // by type: one, then two
      const types = page.getByLabel('Event types')
      await types.fill('file.deleted')
      await page.getByRole('button', { name: 'Search' }).click()
      await expect.poll(() => log.locator('td[data-label="Type"]').allTextContents()).toEqual(['file.deleted'])
      await types.fill('key.created, group.created')
      await page.getByRole('button', { name: 'Search' }).click()
      await expect
        .poll(() => log.locator('td[data-label="Type"]').allTextContents())
        .toEqual(['key.created', 'group.created'])
      // a type that is not one: the server's 400, said as it says it
      await types.fill('File')
      await page.getByRole('button', { name: 'Search' }).click()
      await page.getByRole('alert').filter({ hasText: '"File" is not an event type' }).waitFor()

      // by time: a range around now holds them all, one in the future none, a reversed one is refused
      const now = Date.now()
      await types.fill('')
      await page.getByLabel('From (local time)').fill(localInput(new Date(now - 3_600_000)))
      await page.getByLabel('To (local time)').fill(localInput(new Date(now + 3_600_000)))
      await page.getByRole('button', { name: 'Search' }).click()
      await expect.poll(() => entries.count()).toBe(events.length)
      await page.getByLabel('From (local time)').fill(localInput(new Date(now + 86_400_000)))
      await page.getByLabel('To (local time)').fill(localInput(new Date(now + 2 * 86_400_000)))
      await page.getByRole('button', { name: 'Search' }).click()
      await page.getByText('No events match.').waitFor()
      await page.getByLabel('To (local time)').fill(localInput(new Date(now - 86_400_000)))
      await page.getByRole('button', { name: 'Search' }).click()
      await page.getByRole('alert').filter({ hasText: 'from must not be after to' }).waitFor()

      // pages by the API's cursor: 25 a page, the second going on where the first ended
      for (let i = 0; i < 20; i++) await upload(`bulk-${String(i).padStart(2, '0')}.txt`, `bulk file ${i}`)
      const all = (await apiData<{ events: AuditEvent[] }>('/v3/audit/events?limit=100')).events
      expect(all).toHaveLength(events.length + 20)
      await page.getByRole('button', { name: 'Clear', exact: true }).click()
      await expect.poll(() => entries.count()).toBe(25)
      await page.getByRole('button', { name: 'Next' }).click()
      await page.getByText('Page 2').waitFor()
      await expect.poll(() => entries.count()).toBe(all.length - 25)
      expect(await cell(0, 'Target')).toBe(`${all[25]!.target.kind} ${all[25]!.target.id}`)
      expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true)

      expect(seen.failed).toEqual(['GET /v3/audit/events 400', 'GET /v3/audit/events 400'])
      expect(seen.errors).toEqual([
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
        'Failed to load resource: the server responded with a status of 400 (Bad Request)',
      ])
      await context.close()
    })

    it('registers a webhook endpoint against a real receiver: its secret shown once, deliveries retried and delivered (verified by standardwebhooks with that secret), disabled, deleted', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url })
      const page = await signIn(context, server.url, token)
      const seen = watchConsole(page)
      await page.getByRole('link', { name: 'Webhooks' }).click()
      await page.getByRole('heading', { name: 'Webhooks', level: 2 }).waitFor()
      await page.getByText('No endpoints yet.').waitFor()

      // no type chosen: said before asking; a URL the server refuses: its reason
      const url = page.getByLabel('URL')
      await url.fill('ftp://example.com/hooks')
      await page.getByRole('button', { name: 'Add endpoint' }).click()
      await page.getByRole('alert').filter({ hasText: 'Choose at least one event type.' }).waitFor()
      await page.getByRole('checkbox', { name: /^file\.created/ }).check()
      await page.getByRole('button', { name: 'Add endpoint' }).click()
      await page.getByRole('alert').filter({ hasText: 'url must use http or https' }).waitFor()

      // the receiver: registered for two types, its secret shown once, with a copy button
      await url.fill(receiver.url)
      await page.getByLabel('Description (optional)').fill('ci receiver')
      await page.getByRole('checkbox', { name: /^file\.deleted/ }).check()
      await page.getByRole('button', { name: 'Add endpoint' }).click()
      const once = page.getByRole('region', { name: `Signing secret of ${receiver.url}` })
      await once.getByText('Copy it now: you will not see this again.').waitFor()
      await expect.poll(() => page.evaluate<string | undefined>('document.activeElement?.id')).toBe('secret-title')
      const secret = await once.getByLabel('Signing secret').inputValue()
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
      await once.getByRole('button', { name: 'Copy secret' }).click()
      await once.getByRole('button', { name: 'Copied', exact: true }).waitFor()
      expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret)
      await page.screenshot({ path: join(ARTIFACTS, 'webhooks-secret-1280.png'), fullPage: true })
      const listed = await server.api('/v3/webhooks')
      const listedText = await listed.text()
      expect(listedText).not.toContain(secret)
      const [endpoint] = (JSON.parse(listedText) as { data: { endpoints: { id: string; event_types: string[] }[] } })
        .data.endpoints
      expect(endpoint!.event_types).toEqual(['file.created', 'file.deleted'])
      await once.getByRole('button', { name: 'I have copied it' }).click()
      await once.waitFor({ state: 'detached' })
      expect(await page.content()).not.toContain(secret)

      const row = page.getByRole('list', { name: 'Endpoints' }).getByRole('listitem').filter({ hasText: receiver.url })
      await row.getByText('Enabled', { exact: true }).waitFor()
      await row.getByText('ci receiver').waitFor()
      expect(await row.getByRole('code').allTextContents()).toEqual(['file.created', 'file.deleted'])

      // an upload: the first attempt answered 500 and a retry waiting, then delivered
      const file = await upload('hooked.txt', 'a file for the webhook')
      await row.getByRole('button', { name: 'Show deliveries' }).click()
      const deliveries = row.getByRole('region', { name: `Deliveries to ${receiver.url}` })
      const delivery = deliveries.getByRole('row').filter({ hasText: 'file.created' })
      const field = (column: string) => delivery.locator(`td[data-label="${column}"]`).textContent()
      await delivery.getByText('Waiting to retry').waitFor({ timeout: 10_000 })
      expect(await field('Attempts')).toBe('1')
      expect(await field('Response')).toBe('500the endpoint answered HTTP 500')
      expect(await field('Next attempt')).not.toBe('—')
      await page.screenshot({ path: join(ARTIFACTS, 'webhooks-retry-1280.png'), fullPage: true })
      await delivery.getByText('Delivered').waitFor({ timeout: 15_000 })
      expect(await field('Attempts')).toBe('2')
      expect(await field('Response')).toBe('204')
      expect(await field('Next attempt')).toBe('—')

      // both attempts signed with the secret the page showed, one webhook-id, the one the row names
      expect(receiver.received).toHaveLength(2)
      const [first, retry] = receiver.received.map((request) => verified(secret, request))
      expect(first!.data).toEqual(retry!.data)
      expect(first).toMatchObject({ type: 'file.created', data: { target: { kind: 'file', id: file.id } } })
      const webhookId = String(receiver.received[0]!.headers['webhook-id'])
      expect(receiver.received[1]!.headers['webhook-id']).toBe(webhookId)
      await delivery.getByText(webhookId).waitFor()
      const tampered = {
        ...receiver.received[0]!,
        body: receiver.received[0]!.body.replace('file.created', 'file.deleted'),
      }
      expect(() => verified(secret, tampered)).toThrow()

      // a test event on demand
      await row.getByRole('button', { name: 'Send a test event' }).click()
      await page.getByText(`A test event is queued for ${receiver.url}.`).waitFor()
      await deliveries.getByRole('row').filter({ hasText: 'webhook.test' }).getByText('Delivered').waitFor()
      expect(verified(secret, receiver.received[2]!).type).toBe('webhook.test')
      await page.screenshot({ path: join(ARTIFACTS, 'webhooks-deliveries-1280.png'), fullPage: true })

      // disabled: no new events; deleted after a confirmation
      await row.getByRole('button', { name: 'Disable' }).click()
      await row.getByText('Disabled', { exact: true }).waitFor()
      expect((await apiData<{ enabled: boolean }>(`/v3/webhooks/${endpoint!.id}`)).enabled).toBe(false)
      await row.getByRole('button', { name: `Delete ${receiver.url}` }).click()
      expect((await apiData<{ endpoints: unknown[] }>('/v3/webhooks')).endpoints).toHaveLength(1) // not yet
      await row.getByRole('button', { name: 'Yes, delete' }).click()
      await page.getByText(`Deleted ${receiver.url}.`).waitFor()
      await page.getByText('No endpoints yet.').waitFor()
      expect((await apiData<{ endpoints: unknown[] }>('/v3/webhooks')).endpoints).toEqual([])

      expect(seen.failed).toEqual(['POST /v3/webhooks 400'])
      expect(seen.errors).toEqual(['Failed to load resource: the server responded with a status of 400 (Bad Request)'])
      await context.close()
    })

    it('plays a WebM video dropped on the file list in its preview, through a signed link', async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      const page = await signIn(context, server.url, token)
      const seen = watchConsole(page)
      await page.getByRole('radio', { name: 'Private' }).check()
      const size = await dropRecordedVideo(page, 'clip.webm')
      expect(size).toBeGreaterThan(500)
      const rows = page.getByRole('table').getByRole('row')
      await rows.filter({ hasText: 'clip.webm' }).waitFor()
      const clip = (await byName('private', 'clip.webm'))!
      expect(clip.mime_type).toBe('video/webm')

      await page.getByRole('button', { name: 'clip.webm', exact: true }).click()
      const video = page.getByRole('complementary', { name: 'clip.webm' }).getByLabel('Preview of clip.webm')
      expect(await video.getAttribute('src')).toContain('/files/') // the signed link, not the API
      // its metadata read (dimensions, a duration of about the second recorded), then played to its end
      await expect
        .poll(() =>
          video.evaluate((element) => {
            const shown = element as unknown as { readyState: number; videoWidth: number; videoHeight: number }
            return shown.readyState >= 1 && `${shown.videoWidth}x${shown.videoHeight}`
          }),
        )
        .toBe('64x48')
      const played = await video.evaluate(async (element) => {
        const media = element as unknown as {
          muted: boolean
          duration: number
          currentTime: number
          play(): Promise<void>
          addEventListener(type: string, listener: () => void): void
        }
        media.muted = true
        const ended = new Promise<void>((resolve) => media.addEventListener('ended', resolve))
        await media.play()
        await ended
        return { duration: media.duration, currentTime: media.currentTime }
      })
      expect(played.duration).toBeGreaterThan(0.5)
      expect(played.duration).toBeLessThan(2)
      expect(played.currentTime).toBeCloseTo(played.duration, 1)
      await page.screenshot({ path: join(ARTIFACTS, 'file-preview-video-1280.png'), fullPage: true })
      expect(seen.failed).toEqual([])
      expect(seen.errors).toEqual([])
      await context.close()
    })

    it("passes axe-core's WCAG 2.1 A and AA checks on the file list with uploads, the webhooks and the audit log, at 1280 and 375 px, with nothing wider than the screen", async () => {
      await expectAccessibleAtEverySize(browser, async ({ context, width, check, shot }) => {
        const page = await signIn(context, server.url, token)
        const seen = watchConsole(page)

        // the list with an upload dropped on it, and the video's preview
        await page.getByRole('radio', { name: 'Private' }).check()
        await dropOnList(page, [{ name: `dropped-at-${width}.txt`, text: 'dropped words\n' }])
        await page.getByRole('list', { name: 'Uploads' }).getByText('Uploaded').waitFor()
        await page.getByRole('button', { name: 'clip.webm', exact: true }).click()
        await page.getByLabel('Preview of clip.webm').waitFor()
        await check(page, 'files with an upload and a video preview')
        await shot(page, 'files-drop')

        // webhooks: an endpoint with its secret shown and its deliveries open
        await page.getByRole('link', { name: 'Webhooks' }).click()
        await page.getByLabel('URL').fill(`${receiver.url}/${width}`)
        await page.getByRole('checkbox', { name: /^file\.created/ }).check()
        await page.getByRole('button', { name: 'Add endpoint' }).click()
        await page.getByText('Copy it now: you will not see this again.').waitFor()
        const row = page.getByRole('list', { name: 'Endpoints' }).getByRole('listitem').first()
        await row.getByRole('button', { name: 'Send a test event' }).click()
        await row.getByRole('row').filter({ hasText: 'webhook.test' }).getByText('Delivered').waitFor()
        await check(page, 'webhooks with a secret shown and deliveries')
        await shot(page, 'webhooks')

        // the audit log with every column filled
        await page.getByRole('link', { name: 'Audit log' }).click()
        await page.getByRole('table', { name: 'Audit log events' }).waitFor()
        await check(page, 'audit log')
        await shot(page, 'audit-log')
        expect(seen.failed).toEqual([])
        expect(seen.errors).toEqual([])
      })
    })
  },
)
