import type { WebhookTransport } from '@pinfold/core'

/**
 * A webhook transport for tests whose subject is the routes (validation, isolation, the OpenAPI
 * document), not delivery: it allows every URL but `refused.example` and sends nothing. The real
 * transport (resolution, address checks, signed posts) is tested in
 * `packages/server/test/webhooks.test.ts` and `webhook-transport.test.ts`.
 */
export const routesOnlyWebhookTransport: WebhookTransport = {
  check: async (url) =>
    new URL(url).hostname === 'refused.example'
      ? { kind: 'refused', reason: 'a loopback address' }
      : { kind: 'allowed' },
  post: async () => ({ kind: 'unreachable', reason: 'not sent in this test' }),
}
