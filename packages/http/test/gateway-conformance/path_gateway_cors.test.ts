import {
  type ConformanceGateway,
  conformanceScore,
  startConformanceGateway,
} from '@pinfold/testing/gateway-conformance'
import { afterAll, beforeAll, describe, expect } from 'vitest'

/** gateway-conformance `tests/path_gateway_cors_test.go`: CORS on gateway answers and preflights. */
const score = conformanceScore('path_gateway_cors_test.go')

let gw: ConformanceGateway
beforeAll(async () => {
  gw = await startConformanceGateway()
})
afterAll(() => gw.close())

/** The suite's `Has`: the comma-separated header lists every value. */
const list = (value: string | undefined) => (value ?? '').split(',').map((v) => v.trim().toLowerCase())
const expectHas = (value: string | undefined, ...wanted: string[]) =>
  expect(list(value)).toEqual(expect.arrayContaining(wanted.map((w) => w.toLowerCase())))

describe('TestCors', () => {
  const T = 'TestCors'
  const HELLO = 'bafkqabtimvwgy3yk'
  const checkCors = (headers: Record<string, string | undefined>) => {
    expect(headers['access-control-allow-origin']).toBe('*')
    expectHas(headers['access-control-allow-methods'], 'GET', 'HEAD', 'OPTIONS')
    expectHas(headers['access-control-allow-headers'], 'Content-Type', 'Range', 'User-Agent', 'X-Requested-With')
    expectHas(
      headers['access-control-expose-headers'],
      'Content-Range',
      'Content-Length',
      'X-Ipfs-Path',
      'X-Ipfs-Roots',
      'X-Chunked-Output',
      'X-Stream-Output',
    )
  }

  score.it(
    T,
    'GET Responses from Gateway should include CORS headers allowing JS from other origins to read the data cross-origin.',
    async () => {
      checkCors((await gw.get(`/ipfs/${HELLO}/`)).headers)
    },
  )
  score.it(T, 'OPTIONS to Gateway succeeds', async () => {
    checkCors((await gw.get(`/ipfs/${HELLO}/`, { method: 'OPTIONS' })).headers)
  })
})
