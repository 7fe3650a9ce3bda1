/**
 * The IPFS Pinning Service API's own compliance suite (@ipfs-shipyard/pinning-service-compliance
 * 1.8.1, the CLI its maintainers run against pinning services) pointed at a real server's `/psa`,
 * as Kubo and IPFS Desktop are configured. It runs offline: the committed copy of the spec's YAML
 * replaces the download (PINNING_SERVICE_SPEC, patched in: see pnpm-workspace.yaml), and it validates
 * every answer of its own against that spec's schemas. Each of its nine checks must pass.
 */
import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { PINNING_SERVICE_SPEC_PATH } from '@pinfold/testing/pinning-service'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'

/** The suite's CLI (its package exports nothing else, not even its package.json). */
const SUITE = fileURLToPath(
  new URL('../../node_modules/@ipfs-shipyard/pinning-service-compliance/dist/src/index.js', import.meta.url),
)

/** The suite's checks, by the titles its report gives them, in the order it runs them. */
const CHECKS = [
  'Request with no authentication token',
  'Request with invalid token',
  'Pins post of CID',
  'Can create and then delete a new pin',
  'List pin objects (GET /pins) in all states',
  "Can create and replace a pin's CID",
  'Can create a pin with name=',
  'Pagination: Get all pins, create new pins (optional), get first and second pages',
  'Can delete all pins created during compliance checks',
]

function runSuite(endpoint: string, token: string, docs: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const { NODE_OPTIONS: _, ...env } = process.env
    execFile(
      process.execPath,
      [SUITE, '--serviceAndToken', endpoint, token],
      {
        env: { ...env, PINNING_SERVICE_SPEC: PINNING_SERVICE_SPEC_PATH, PINNING_SERVICE_COMPLIANCE_DOCS: docs },
        timeout: 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (err, stdout, stderr) =>
        err ? reject(Object.assign(err, { message: `${err.message}\n${stderr}` })) : resolve(`${stdout}\n${stderr}`),
    )
  })
}

describe('interop - the Pinning Service API compliance suite against /psa', () => {
  let server: TestServer
  let docs: string
  let output: string
  let report: string

  beforeAll(async () => {
    server = await startTestServer({ HOST: '127.0.0.1' }, { storage: 'memory' })
    docs = await mkdtemp(join(tmpdir(), 'pinfold-psa-compliance-'))
    output = await runSuite(`${server.url}/psa`, await server.token(), docs)
    report = await readFile(join(docs, '127.0.0.1.md'), 'utf8')
  }, 150_000)
  afterAll(async () => {
    await server?.close()
    if (docs) await rm(docs, { recursive: true, force: true })
  })

  /** The report's summary: one line per check it ran, `🟢` or `❌` and the check's title. */
  const summary = () => {
    const section = report.split(/^## /m).find((part) => part.startsWith('Summary'))
    expect(section, report.slice(0, 2000)).toBeDefined()
    return section!
      .split('\n')
      .map((line) => /^\s*(🟢|❌|⚠️)\s*\[(.*)\]\(/u.exec(line))
      .filter((match) => match !== null)
      .map((match) => ({ passed: match[1] === '🟢', title: match[2]! }))
  }

  it('runs offline: the spec comes from the committed copy, its schemas build', () => {
    expect(output).not.toMatch(/Could not get joi schema|Problem running compliance check/)
  })

  it.each(CHECKS)('check passes: %s', (title) => {
    const check = summary().find((entry) => entry.title.startsWith(title))
    expect(check, `the summary lists "${title}"\n${report.slice(0, 3000)}`).toBeDefined()
    expect(check!.passed, report).toBe(true)
  })

  it('the summary counts nine checks, all passed', () => {
    expect(summary()).toHaveLength(CHECKS.length)
    expect(report).toContain(`## Summary (${CHECKS.length}/${CHECKS.length} successful)`)
  })
})
