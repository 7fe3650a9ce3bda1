import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { mintToken, SCOPES } from '@pinfold/core'
import { TEST_SECRET } from '@pinfold/testing/test-api'
import { cidOf } from '@pinfold/testing/tus'
import { Upload } from 'tus-js-client'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type ChildServer, exited, startChildServer } from './support/child-server.js'

/**
 * Debian's nginx with deploy/nginx.conf, as written but for its two addresses, in front of a real
 * `pinfold serve`: what an operator following docs/deployment.md runs. The proxy is the point, not
 * the storage, so it runs once, on the default test run (CI installs nginx first).
 */
const NGINX = ['/usr/sbin/nginx', '/usr/local/sbin/nginx', '/usr/local/nginx/sbin/nginx'].find((path) =>
  existsSync(path),
)
const DEFAULT_RUN = (process.env.PINFOLD_TEST_STORAGE ?? 'memory') === 'memory'
const SKIP_REASON = !NGINX
  ? 'skipped: no nginx binary (apt-get install nginx; CI installs it)'
  : 'skipped: runs on the default test run only (PINFOLD_TEST_STORAGE unset)'
const GiB = 1024 ** 3
const MiB = 1024 ** 2

describe.skipIf(!NGINX || !DEFAULT_RUN)(
  'nginx in front of pinfold serve (deploy/nginx.conf)',
  { timeout: 300_000 },
  () => {
    let dir: string
    let pinfold: ChildServer
    let nginx: ChildProcess
    let proxy: string
    let token: string

    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'pinfold-nginx-'))
      token = await mintToken(TEST_SECRET, { sub: 'proxied', scopes: SCOPES, expiresIn: '1h' })
      pinfold = await startChildServer({
        PINFOLD_STORAGE: 'embedded',
        PINFOLD_DATA_DIR: join(dir, 'data'),
        PINFOLD_AUTH_SECRET: TEST_SECRET,
        HOST: '127.0.0.1',
        PINFOLD_TRUST_PROXY: '1',
        PINFOLD_RATE_LIMIT_PER_IP: '30',
      })
      const port = await freePort()
      proxy = `http://127.0.0.1:${port}`
      await writeFile(join(dir, 'pinfold.conf'), await siteConfig(new URL(pinfold.url).port, port))
      await writeFile(
        join(dir, 'nginx.conf'),
        // the test's own main context: one foreground process writing only under `dir`
        [
          'daemon off;',
          'master_process off;',
          `pid ${dir}/nginx.pid;`,
          `error_log ${dir}/error.log warn;`,
          'events { worker_connections 256; }',
          'http {',
          '  access_log off;',
          ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `  ${t}_temp_path ${dir}/${t}_temp;`),
          `  include ${dir}/pinfold.conf;`,
          '}',
        ].join('\n'),
      )
      const args = ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')]
      execFileSync(NGINX!, ['-t', ...args], { stdio: 'pipe' })
      nginx = spawn(NGINX!, args, { stdio: 'ignore' })
      await listening(port)
    })

    afterAll(async () => {
      nginx?.kill('SIGTERM')
      if (nginx) await exited(nginx)
      pinfold?.child.kill('SIGTERM')
      if (pinfold) await exited(pinfold.child)
      await rm(dir, { recursive: true, force: true })
    })

    it('upload - 1 GiB streams through: Pinfold stores most of it before the client has sent the end', async () => {
      const tempDir = join(dir, 'data', 'blobs', '.tmp')
      const sent = createHash('sha256')
      const boundary = 'pinfold-nginx-boundary'
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="network"\r\n\r\npublic\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      )
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`)
      const block = randomBytes(MiB)
      let largestTemp = 0

      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${proxy}/v3/files`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(head.length + GiB + tail.length),
          },
        })
        req.on('error', reject)
        req.on('response', (res) => {
          let body = ''
          res.setEncoding('utf8')
          res.on('data', (chunk: string) => {
            body += chunk
          })
          res.on('end', () => resolve({ status: res.statusCode!, body }))
        })
        void (async () => {
          req.write(head)
          for (let i = 0; i < GiB / MiB; i++) {
            if (i === GiB / MiB - 1) {
              // hold the last MiB back: a proxy that buffers the body has passed nothing on yet
              largestTemp = await waitForTempFile(tempDir, 768 * MiB, 120_000)
            }
            const chunk = Buffer.from(block)
            chunk.writeUInt32BE(i, 0)
            sent.update(chunk)
            if (!req.write(chunk)) await new Promise((drained) => req.once('drain', drained))
          }
          req.end(tail)
        })().catch(reject)
      })
      expect(largestTemp).toBeGreaterThanOrEqual(768 * MiB)
      expect(answer.status, answer.body).toBe(200)
      const { data } = JSON.parse(answer.body) as { data: { cid: string; size: number } }
      expect(data.size).toBe(GiB)

      // and the whole GiB back through the proxy, streamed
      const back = await fetch(`${proxy}/ipfs/${data.cid}`)
      expect(back.status).toBe(200)
      const received = createHash('sha256')
      let length = 0
      for await (const chunk of back.body!) {
        received.update(chunk)
        length += chunk.length
      }
      expect(length).toBe(GiB)
      expect(received.digest('hex')).toBe(sent.digest('hex'))
    })

    it('tus - tus-js-client uploads in chunks through the proxy, following the Location it was given', async () => {
      const bytes = randomBytes(20 * MiB + 3)
      const url = await new Promise<string>((resolve, reject) => {
        const upload = new Upload(bytes, {
          endpoint: `${proxy}/v3/files`,
          chunkSize: 8 * MiB,
          headers: { Authorization: `Bearer ${token}` },
          metadata: { filename: 'proxied.bin', filetype: 'application/octet-stream', network: 'public' },
          retryDelays: [],
          onError: reject,
          onSuccess: () => resolve(upload.url!),
        })
        upload.start()
      })
      // X-Forwarded-Proto/-Host: the upload's URL is the proxy's, port included
      expect(url.startsWith(`${proxy}/v3/files/`)).toBe(true)
      const back = await fetch(`${proxy}/ipfs/${await cidOf(bytes)}`)
      expect(Buffer.from(await back.arrayBuffer()).equals(bytes)).toBe(true)
    })

    it('X-Forwarded-Host/-Proto - links the server returns name the proxy, not the upstream', async () => {
      const body = new FormData()
      body.append('file', new Blob(['private bytes']), 'private.txt')
      body.append('network', 'private')
      const up = await fetch(`${proxy}/v3/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body,
      })
      const { cid } = ((await up.json()) as { data: { cid: string } }).data
      const res = await fetch(`${proxy}/v3/files/private/download_link`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url: `x/files/${cid}`, expires: 60 }),
      })
      expect(res.status).toBe(200)
      const link = new URL(((await res.json()) as { data: string }).data)
      expect(link.origin).toBe(proxy)
      expect(await (await fetch(link)).text()).toBe('private bytes')
    })

    it('X-Forwarded-For - per-address limits count the address nginx saw, not the socket nor what the client claims', async () => {
      const from = (localAddress: string, headers: Record<string, string> = {}) =>
        new Promise<number>((resolve, reject) => {
          const req = request(`${proxy}/v3/files/public`, { localAddress, headers }, (res) => {
            res.resume()
            res.on('end', () => resolve(res.statusCode!))
          })
          req.on('error', reject)
          req.end()
        })
      const statuses: number[] = []
      for (let i = 0; i < 31; i++) statuses.push(await from('127.0.0.3'))
      expect(statuses.slice(0, 30).every((status) => status === 401)).toBe(true)
      expect(statuses[30]).toBe(429)
      // another client: a budget of its own, even when it claims to be the first one
      expect(await from('127.0.0.4', { 'x-forwarded-for': '127.0.0.3' })).toBe(401)
    })

    it('large headers - a 12 KiB header line passes (nginx alone stops at 8 KiB)', async () => {
      const res = await fetch(`${proxy}/v3/files/public`, {
        headers: { authorization: `Bearer ${token}`, 'x-large': 'x'.repeat(12 * 1024) },
      })
      expect(res.status).toBe(200)
      expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    })
  },
)

/** deploy/nginx.conf with Pinfold's port and the proxy's loopback address: nothing else changes. */
async function siteConfig(pinfoldPort: string, proxyPort: number): Promise<string> {
  const text = await readFile(new URL('../../../deploy/nginx.conf', import.meta.url), 'utf8')
  const replacements: [string, string][] = [
    ['server 127.0.0.1:3000;', `server 127.0.0.1:${pinfoldPort};`],
    ['listen 80;', `listen 127.0.0.1:${proxyPort};`],
    ['listen [::]:80;', ''],
  ]
  return replacements.reduce((config, [from, to]) => {
    if (!config.includes(from)) throw new Error(`deploy/nginx.conf no longer has "${from}": update this test`)
    return config.replace(from, to)
  }, text)
}

async function waitForTempFile(tempDir: string, atLeast: number, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    let largest = 0
    for (const name of await readdir(tempDir).catch(() => [])) {
      largest = Math.max(
        largest,
        await stat(join(tempDir, name)).then(
          (s) => s.size,
          () => 0,
        ),
      )
    }
    if (largest >= atLeast || Date.now() > deadline) return largest
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

async function listening(port: number): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve(true)
      })
      socket.once('error', () => resolve(false))
    })
    if (open) return
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`nginx did not listen on ${port}`)
}

// vitest prints the reason with the skipped suite's name
if (!NGINX || !DEFAULT_RUN) console.log(`nginx-proxy.test.ts: ${SKIP_REASON}`)
