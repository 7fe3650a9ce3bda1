import { optionChecks } from '@pinfold/core'
import type { ImageOptions } from '@pinfold/http'
import { createSharpTransformer, type SharpTransformerOptions } from '@pinfold/image-sharp'

const check = optionChecks('@pinfold/server', 'readConfig', 'variable')

/** Image optimisation settings (`PINFOLD_IMAGE_*`); `undefined` when `PINFOLD_IMAGES=off`. */
export interface ImageConfig extends SharpTransformerOptions {
  cacheBytes?: number
}

const LIMITS: [keyof ImageConfig, string][] = [
  ['maxInputPixels', 'PINFOLD_IMAGE_MAX_INPUT_PIXELS'],
  ['maxInputBytes', 'PINFOLD_IMAGE_MAX_INPUT_BYTES'],
  ['maxOutputBytes', 'PINFOLD_IMAGE_MAX_OUTPUT_BYTES'],
  ['maxDimension', 'PINFOLD_IMAGE_MAX_DIMENSION'],
  ['concurrency', 'PINFOLD_IMAGE_CONCURRENCY'],
  ['maxQueue', 'PINFOLD_IMAGE_MAX_QUEUE'],
  ['maxPerTenant', 'PINFOLD_IMAGE_TENANT_QUEUE'],
  ['maxRunningPerTenant', 'PINFOLD_IMAGE_TENANT_JOBS'],
  ['timeoutSeconds', 'PINFOLD_IMAGE_TIMEOUT_SECONDS'],
  ['cacheBytes', 'PINFOLD_IMAGE_CACHE_BYTES'],
]

/** Reads the `PINFOLD_IMAGE_*` variables: unset ones keep the transformer's defaults. */
export function imageConfigFromEnv(env: NodeJS.ProcessEnv): ImageConfig | undefined {
  const switched = env.PINFOLD_IMAGES ?? 'on'
  if (switched !== 'on' && switched !== 'off')
    throw check.error('PINFOLD_IMAGES', `must be "on" or "off", got "${switched}"`)
  if (switched === 'off') return undefined
  const config: ImageConfig = {}
  for (const [key, name] of LIMITS) {
    const value = env[name]
    if (value === undefined || value === '') continue
    // 0 is a valid cache size (no cache); every other limit must be positive
    config[key] =
      key === 'cacheBytes' ? check.nonNegativeInteger(name, Number(value)) : check.positiveInteger(name, Number(value))
  }
  return config
}

/** The fetch handler's `images` option for these settings. */
export function imageOptions(config: ImageConfig | undefined): ImageOptions | undefined {
  if (!config) return undefined
  const { cacheBytes, ...transformer } = config
  return { transformer: createSharpTransformer(transformer), cacheBytes }
}
