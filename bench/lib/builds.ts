/** A build whose server a benchmark runs: a built checkout, this one when `checkout` is undefined. */
export interface BenchBuild {
  name: string
  checkout?: string | undefined
}

/** This build, and the built checkout at `$<variable>` as `baseline` when it is set, for before/after figures from one run. */
export function buildsToCompare(variable: string): BenchBuild[] {
  const baseline = process.env[variable]
  return baseline ? [{ name: 'this build' }, { name: 'baseline', checkout: baseline }] : [{ name: 'this build' }]
}
