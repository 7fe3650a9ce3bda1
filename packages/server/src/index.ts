/**
 * The `pinfold` server: configuration from the environment, storage wiring (memory, filesystem,
 * PostgreSQL or embedded PGlite, S3), embedders, payments and sweepers around `@pinfold/http`,
 * served through `@pinfold/http-node`. The `pinfold` binary (`pinfold serve`, `pinfold token`,
 * `pinfold migrate`) is this package's CLI.
 *
 * ```ts
 * import { readConfig, startServer } from '@pinfold/server'
 *
 * const running = await startServer(readConfig(process.env))
 * console.log(running.url)
 * ```
 */
export { type IpfsConfig, readConfig, type ServerConfig } from './config.js'
export type { RunningIpfsNode } from './ipfs-node.js'
export {
  createPrometheusMetrics,
  type PrometheusMetrics,
  type PrometheusMetricsOptions,
} from './metrics/prometheus-metrics.js'
export { paymentOptionsFromEnv, paymentVerifierFromEnv } from './payments-config.js'
export { type RunningServer, startServer } from './server.js'
export { type RunningTracing, startOtlpTracing, startTracing } from './tracing.js'
