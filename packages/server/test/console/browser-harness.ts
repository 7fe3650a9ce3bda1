import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { expect } from 'vitest'
import { axeViolations } from '../support/browser.js'

/**
 * What the console's browser tests (`console-*-e2e.test.ts`) share: signing in, the accessibility
 * pass at both sizes, and the folder their screenshots go to.
 */

/** A page of the console at `url`, signed in with `token`, showing the file list. */
export async function signIn(context: BrowserContext, url: string, token: string): Promise<Page> {
  const page = await context.newPage()
  await page.goto(`${url}/console/`)
  await page.getByLabel('Token or API key').fill(token)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Files', level: 2 }).waitFor()
  return page
}

/** Where the console's browser tests leave their screenshots (git-ignored; listed in the console's README). */
export const ARTIFACTS = fileURLToPath(new URL('../../../console/test-artifacts/', import.meta.url))

/** The sizes every console view is checked at: a laptop's 1280 px and a phone's 375 px. */
export const VIEWPORTS = [
  { width: 1280, height: 900 },
  { width: 375, height: 812 },
] as const

/** One size's visit: a fresh browser context at that size, and the checks of the pages it opens. */
export interface SizeVisit {
  context: BrowserContext
  width: number
  /** The phone's size (a touch screen, a mobile viewport). */
  phone: boolean
  /** axe-core's WCAG 2.0/2.1 A and AA checks of `page` as it is, and any sideways scrolling, noted under `view`. */
  check(page: Page, view: string): Promise<void>
  /** A full-page screenshot `{name}-375.png` in ARTIFACTS, on the phone's visit only. */
  shot(page: Page, name: string): Promise<void>
}

/**
 * Runs `visit` once at each size in VIEWPORTS, then expects no axe violation and nothing wider than
 * the screen on any page it checked. axe is evaluated by the debugging protocol, so the contexts
 * bypass the console's content security policy (which allows no script but its own files).
 */
export async function expectAccessibleAtEverySize(
  browser: Browser,
  visit: (size: SizeVisit) => Promise<void>,
): Promise<void> {
  const violations: Record<string, unknown> = {}
  const overflows: Record<string, number> = {}
  for (const viewport of VIEWPORTS) {
    const phone = viewport.width < 500
    const context = await browser.newContext({ viewport, bypassCSP: true, isMobile: phone, hasTouch: phone })
    try {
      await visit({
        context,
        width: viewport.width,
        phone,
        async check(page, view) {
          const found = await axeViolations(page)
          if (found.length > 0) violations[`${view} at ${viewport.width}px`] = found
          const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')
          if (overflow > 0) overflows[`${view} at ${viewport.width}px`] = overflow
        },
        async shot(page, name) {
          if (phone) await page.screenshot({ path: join(ARTIFACTS, `${name}-${viewport.width}.png`), fullPage: true })
        },
      })
    } finally {
      await context.close()
    }
  }
  expect(violations).toEqual({})
  expect(overflows).toEqual({})
}
