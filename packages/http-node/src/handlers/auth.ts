import { json } from '../responses.js'
import type { Route } from '../router.js'

// Unwrapped, as Pinata answers it: the SDK's testAuthentication() returns this body as it is.
const testAuthentication = async () => json({ message: 'Congratulations! You are communicating with the Pinata API!' })

export const authRoutes: Route[] = [
  {
    method: 'GET',
    path: '/data/testAuthentication',
    auth: 'token',
    summary: 'Check a token',
    handle: testAuthentication,
  },
  {
    method: 'GET',
    path: '/v3/data/testAuthentication',
    auth: 'token',
    summary: 'Check a token',
    handle: testAuthentication,
  },
]
