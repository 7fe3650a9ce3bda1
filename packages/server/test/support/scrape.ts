import parsePrometheusTextFormat, { type MetricFamily, type ParsedSample } from 'parse-prometheus-text-format'
import type { Registry } from 'prom-client'

/** One scrape, parsed by a Prometheus text-format parser, with lookups by name and labels. */
export interface Scrape {
  families: MetricFamily[]
  family(name: string): MetricFamily | undefined
  /** The samples of `name` whose labels include `labels`. */
  samples(name: string, labels?: Record<string, string>): ParsedSample[]
  /** The sum of the values of `name` (a counter or gauge) over the samples matching `labels`; 0 if none. */
  value(name: string, labels?: Record<string, string>): number
}

export function parseScrape(text: string): Scrape {
  const families = parsePrometheusTextFormat(text)
  const byName = new Map(families.map((family) => [family.name, family]))
  const samples = (name: string, labels: Record<string, string> = {}) =>
    (byName.get(name)?.metrics ?? []).filter((sample) =>
      Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value),
    )
  return {
    families,
    family: (name) => byName.get(name),
    samples,
    value: (name, labels) => samples(name, labels).reduce((sum, sample) => sum + Number(sample.value ?? 0), 0),
  }
}

/**
 * A histogram's observation count over its series matching `labels`, read through prom-client's
 * own API: parse-prometheus-text-format 1.1.1 folds every labelled series of a histogram into one
 * (its `flattenMetrics`), so the text parser checks the exposition and families, this the counts.
 */
export async function histogramCount(
  registry: Registry,
  name: string,
  labels: Record<string, string | number> = {},
): Promise<number> {
  const metric = await registry.getSingleMetric(name)?.get()
  return (
    (metric?.values ?? [])
      // a histogram's values carry the series name (`_bucket`, `_sum`, `_count`), which its type omits
      .filter((sample) => (sample as { metricName?: string }).metricName === `${name}_count`)
      .filter((sample) => Object.entries(labels).every(([key, value]) => String(sample.labels[key]) === String(value)))
      .reduce((sum, sample) => sum + sample.value, 0)
  )
}

/** GETs `url` with `token` (if any) and parses the answer; fails the test on anything but a 200. */
export async function scrape(url: string, token?: string): Promise<Scrape> {
  const res = await fetch(url, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`scrape of ${url} answered ${res.status}: ${text}`)
  if (!res.headers.get('content-type')?.startsWith('text/plain; version=0.0.4')) {
    throw new Error(`scrape of ${url} is not the Prometheus text format: ${res.headers.get('content-type')}`)
  }
  return parseScrape(text)
}
