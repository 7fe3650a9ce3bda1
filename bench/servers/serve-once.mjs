// How every benchmark server starts and stops: listen on a free loopback port, print `{url, token}`
// as one JSON line (bench/lib/process.ts waits for it), and on SIGTERM close every connection, run
// `cleanup` (e.g. remove a temporary data directory) and exit.
export function serveOnce(server, { token = async () => '', cleanup = async () => {} } = {}) {
  server.listen(0, '127.0.0.1', async () => {
    const url = `http://127.0.0.1:${server.address().port}`
    process.stdout.write(`${JSON.stringify({ url, token: await token() })}\n`)
  })
  process.once('SIGTERM', () => {
    server.close()
    server.closeAllConnections()
    void cleanup().then(() => process.exit(0))
  })
}
