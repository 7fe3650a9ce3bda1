import type { WebhookAttemptResult } from '@pinfold/core'
import { Counter, type Registry } from 'prom-client'

/** Webhook delivery attempts, by what each came to. */
export function watchWebhooks(registers: Registry[]) {
  const attempts = new Counter({
    name: 'pinfold_webhook_attempts_total',
    help: 'Webhook delivery attempts, by result: delivered (2xx), retried, failed (out of attempts), refused (the host resolved to a refused address).',
    labelNames: ['result'] as const,
    registers,
  })
  return {
    webhookAttempt(result: WebhookAttemptResult): void {
      attempts.inc({ result })
    },
  }
}
