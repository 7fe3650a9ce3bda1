import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { type Browser, chromium, type Page } from 'playwright-core'

/** Debian's chromium (or `PINFOLD_CHROMIUM`), driven headless by playwright-core; undefined where there is none. */
export const CHROMIUM = [process.env.PINFOLD_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (path) => path && existsSync(path),
)
// CI installs chromium and sets PINFOLD_REQUIRE_CHROMIUM; elsewhere a machine without it skips.
if (!CHROMIUM && process.env.PINFOLD_REQUIRE_CHROMIUM) throw new Error('chromium not found (PINFOLD_CHROMIUM)')

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8')

/** A headless chromium; `args` are added to its command line. */
export function launchChromium(args: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', ...args] })
}

/** What axe-core finds against WCAG 2.0 and 2.1, levels A and AA, on the page as it is. */
export async function axeViolations(page: Page): Promise<{ id: string; impact: string; nodes: string[] }[]> {
  // evaluated by the debugging protocol rather than added as a script tag, which a page's content
  // security policy (script-src 'self') refuses
  await page.evaluate(AXE)
  return page.evaluate(`axe
    .run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
    .then((result) => result.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => n.target.join(' ')) })))`)
}
