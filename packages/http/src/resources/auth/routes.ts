import Type from 'typebox'
import { jsonResponse } from '../../openapi/responses.js'
import { json } from '../../responses.js'
import { defineRoute } from '../../router.js'

// Unwrapped, as Pinata answers it: the SDK's testAuthentication() returns this body as it is.
const testAuthentication = async () => json({ message: 'Congratulations! You are communicating with the Pinata API!' })

const authRoute = (path: string) =>
  defineRoute({
    method: 'GET',
    path,
    auth: 'token',
    summary: 'Check a token',
    tags: ['Auth'],
    responses: { '200': jsonResponse('The token is valid', Type.Object({ message: Type.String() })) },
    handle: testAuthentication,
  })

export const authRoutes = [authRoute('/data/testAuthentication'), authRoute('/v3/data/testAuthentication')]
