import type { CompletionStep, ResumableUploadSettings } from '@pinfold/core'

const STEPS: readonly CompletionStep[] = ['claimed', 'assembled', 'dag-closed', 'recorded']

/**
 * For crash tests only: `PINFOLD_TEST_HALT_COMPLETION_AT=<step>` makes every resumable upload's
 * completion stop for good once it has passed that step, after one log line
 * (`{"message":"completion halted","step":…,"session":…}`) that tells the test to kill the process
 * there. Unset (always, outside tests): no checkpoint at all.
 */
export function completionHaltFromEnv(
  env: NodeJS.ProcessEnv,
  log: (fields: Record<string, unknown>) => void,
): ResumableUploadSettings['checkpoint'] {
  const at = env.PINFOLD_TEST_HALT_COMPLETION_AT
  if (!at) return undefined
  if (!STEPS.includes(at as CompletionStep)) {
    throw new Error(`PINFOLD_TEST_HALT_COMPLETION_AT must be one of ${STEPS.join(', ')}, got "${at}"`)
  }
  return async (step, session) => {
    if (step !== at) return
    log({ message: 'completion halted', step, session })
    await new Promise<never>(() => {})
  }
}
