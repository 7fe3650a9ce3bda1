import { describeMountedPinfold } from '@pinfold/testing/mounted-pinfold'
import { createApp } from '../src/app.js'

describeMountedPinfold('the Fastify example', {
  basePath: '/pinfold',
  start: async (secret) => {
    const app = createApp({ secret })
    return {
      origin: await app.listen({ port: 0, host: '127.0.0.1' }),
      close: async () => {
        await app.close()
      },
    }
  },
  hostRoute: { path: '/health', json: { ok: true } },
})
