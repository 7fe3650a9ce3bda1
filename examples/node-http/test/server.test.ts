import { describeMountedPinfold, listeningHost } from '@pinfold/testing/mounted-pinfold'
import { createPinfoldServer } from '../src/server.js'

describeMountedPinfold('the node:http example', {
  basePath: '',
  start: (secret) => listeningHost(createPinfoldServer({ secret }).listen(0, '127.0.0.1')),
})
