import { describeMountedPinfold, listeningHost } from '@pinfold/testing/mounted-pinfold'
import { createApp } from '../src/app.js'

describeMountedPinfold('the Express example', {
  basePath: '/pinfold',
  start: (secret) => listeningHost(createApp({ secret }).listen(0, '127.0.0.1')),
  hostRoute: { path: '/health', json: { ok: true } },
})
