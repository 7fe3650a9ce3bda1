/** The shapes `parse-prometheus-text-format` 1.1.1 returns (the package ships no types). */
declare module 'parse-prometheus-text-format' {
  export interface ParsedSample {
    labels?: Record<string, string>
    /** Counters, gauges, untyped. */
    value?: string
    /** Histograms: cumulative counts by upper bound (`le`); summaries: `quantiles`. */
    buckets?: Record<string, string>
    quantiles?: Record<string, string>
    count?: string
    sum?: string
  }
  export interface MetricFamily {
    name: string
    help: string
    type: 'COUNTER' | 'GAUGE' | 'HISTOGRAM' | 'SUMMARY' | 'UNTYPED'
    metrics: ParsedSample[]
  }
  export default function parsePrometheusTextFormat(text: string): MetricFamily[]
}
