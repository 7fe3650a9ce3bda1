import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createNodeHandler, type NodeHandlerOptions } from '@pinfold/http-node'
import { apiClient, type TestApi } from '@pinfold/testing/test-api'

/**
 * An in-process test API (@pinfold/testing's `test-api`) served over node:http through the bridge on
 * a loopback port, for a service `startTestServer` cannot configure (a chosen embedder, faulty
 * stores) in front of something that needs a real server: an SDK, an x402 client, a socket cut
 * mid-request. `url`, `api` and `fetch` go over the network; closing it closes the API too.
 */
export async function serveOverHttp(
  inner: TestApi,
  options: NodeHandlerOptions = {},
): Promise<TestApi & { http: Server }> {
  const http = createServer(createNodeHandler(inner.handler, options))
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`
  const send: TestApi['fetch'] = (input, init) => fetch(input, init)
  return {
    ...inner,
    http,
    url,
    fetch: send,
    api: apiClient(send, url, inner.token, await inner.token()),
    async close() {
      await new Promise<void>((resolve) => {
        http.close(() => resolve())
        http.closeAllConnections()
      })
      await inner.close()
    },
  }
}
