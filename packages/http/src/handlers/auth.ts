import { jsonResponse, schemas } from '../openapi/schemas.js'
import { json } from '../responses.js'
import type { Route } from '../router.js'

// Unwrapped, as Pinata answers it: the SDK's testAuthentication() returns this body as it is.
const testAuthentication = async () => json({ message: 'Congratulations! You are communicating with the Pinata API!' })

const authDoc = {
  tags: ['Auth'],
  responses: { '200': jsonResponse('The token is valid', schemas.object({ message: schemas.string })) },
}

export const authRoutes: Route[] = [
  {
    method: 'GET',
    path: '/data/testAuthentication',
    auth: 'token',
    summary: 'Check a token',
    openapi: authDoc,
    handle: testAuthentication,
  },
  {
    method: 'GET',
    path: '/v3/data/testAuthentication',
    auth: 'token',
    summary: 'Check a token',
    openapi: authDoc,
    handle: testAuthentication,
  },
]
