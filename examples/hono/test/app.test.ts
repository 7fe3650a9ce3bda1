import { serve } from '@hono/node-server'
import { describeMountedPinfold, listeningHost } from '@pinfold/testing/mounted-pinfold'
import { createApp } from '../src/app.js'

describeMountedPinfold('the Hono example', {
  basePath: '/pinfold',
  start: (secret) =>
    listeningHost(
      // overrideGlobalObjects: false — by default @hono/node-server replaces the global Request with
      // its own, which every later file in this worker (vitest's isolate: false) would then see
      serve({ fetch: createApp({ secret }).fetch, port: 0, hostname: '127.0.0.1', overrideGlobalObjects: false }),
    ),
  hostRoute: { path: '/health', json: { ok: true } },
})
