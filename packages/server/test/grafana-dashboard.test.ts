import { readFile } from 'node:fs/promises'
import { parser } from '@prometheus-io/lezer-promql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Scrape, scrape } from './support/scrape.js'
import { startTestServer, type TestServer } from './support/server.js'

/**
 * deploy/grafana-dashboard.json against the server: every PromQL expression in it parses (with
 * Prometheus's own PromQL grammar, lezer-promql) and every metric it selects is one the server
 * exports, as read from a real scrape by a Prometheus text-format parser.
 */

const TOKEN = 'dashboard-operator-token-0123456789'
const DASHBOARD = new URL('../../../deploy/grafana-dashboard.json', import.meta.url)

interface Panel {
  title: string
  targets?: { expr: string }[]
}

/** Grafana's variables, replaced as Grafana would before the query reaches Prometheus. */
const withVariables = (expr: string) => expr.replaceAll('$__rate_interval', '5m')

/** The metric names an expression selects, or the parse errors it has. */
function selectedMetrics(expr: string): { names: string[]; errors: string[] } {
  const tree = parser.parse(expr)
  const names: string[] = []
  const errors: string[] = []
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(`cannot parse at ${node.from}: ${JSON.stringify(expr.slice(node.from))}`)
      if (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector') {
        names.push(expr.slice(node.from, node.to))
      }
    },
  })
  return { names, errors }
}

/** A series name as the text format writes it, to its family: `x_bucket` of histogram `x` is `x`. */
function family(scraped: Scrape, name: string) {
  const exact = scraped.family(name)
  if (exact) return exact
  const base = name.replace(/_(bucket|sum|count)$/, '')
  const found = scraped.family(base)
  return found && (found.type === 'HISTOGRAM' || found.type === 'SUMMARY') ? found : undefined
}

describe('deploy/grafana-dashboard.json', () => {
  let server: TestServer
  let scraped: Scrape
  let panels: Panel[]

  beforeAll(async () => {
    server = await startTestServer({ PINFOLD_METRICS_TOKEN: TOKEN })
    scraped = await scrape(`${server.url}/metrics`, TOKEN)
    panels = (JSON.parse(await readFile(DASHBOARD, 'utf8')) as { panels: Panel[] }).panels
  })
  afterAll(() => server?.close())

  it('dashboard - every expression parses as PromQL and names only metrics the server exports', () => {
    const targets = panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel, expr: target.expr })))
    expect(targets.length).toBeGreaterThan(10)
    const problems: string[] = []
    for (const { panel, expr } of targets) {
      const { names, errors } = selectedMetrics(withVariables(expr))
      problems.push(...errors.map((error) => `${panel.title}: ${error}`))
      if (names.length === 0) problems.push(`${panel.title}: selects no metric: ${expr}`)
      for (const name of names) {
        if (!family(scraped, name)) problems.push(`${panel.title}: ${name} is not exported`)
      }
    }
    expect(problems).toEqual([])
  })

  it('dashboard - the check itself fails on a metric the server does not export and on broken PromQL', () => {
    const { names } = selectedMetrics('sum(rate(pinfold_no_such_metric_total[5m]))')
    expect(names).toEqual(['pinfold_no_such_metric_total'])
    expect(family(scraped, 'pinfold_no_such_metric_total')).toBeUndefined()
    // a counter's name with a histogram suffix is no series of it
    expect(family(scraped, 'pinfold_http_requests_total_bucket')).toBeUndefined()
    expect(selectedMetrics('sum(rate(pinfold_http_requests_total[5m])').errors).not.toEqual([])
  })
})
