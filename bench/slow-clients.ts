/**
 * Clients that misbehave, against the built `pinfold serve` (records in PostgreSQL, blobs in its
 * data directory):
 *
 * 1. downloads of a 1 GiB file whose clients stop reading after 1 MiB (1, then 16 at once): the
 *    server's RSS while they hang must stay bounded (goal: growth ≤ 50 MB), other requests answered;
 * 2. 1,000 aborted uploads (multipart bodies cut mid-way; tus PATCHes cut mid-way, half of them then
 *    terminated with DELETE, half abandoned): no temp file once the connections are gone, no staged
 *    file or blob after the sweep (the server's own sweeps, run with the clock past the sessions'
 *    expiry), descriptors back where they were, no record;
 * 3. `prlimit --nofile=256` and 400 downloads held open at once: answers 503 (or connections the
 *    server cannot accept are closed), no crash, and once they are gone it serves again;
 * 4. a read-only data directory (a read-only bind mount in a mount namespace of its own, `unshare
 *    -rm`; root ignores permission bits): one clear start-up error and a non-zero exit.
 *
 * Needs PostgreSQL: `BENCH_DATABASE_URL` or `TEST_DATABASE_URL`. BENCH_STALL_SECONDS (default 20),
 * BENCH_STALL_MIB (default 1024), BENCH_ABORTED_UPLOADS (default 1000), BENCH_FD_DOWNLOADS (400).
 */
import { spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, readdir, rm } from 'node:fs/promises'
import { loadavg } from 'node:os'
import { join } from 'node:path'
import { createFsBlobStore } from '@pinfold/adapter-fs'
import { createPostgresRecordStore, fromPgPool } from '@pinfold/adapter-postgres'
import { createFileService } from '@pinfold/core'
import pg from 'pg'
import { benchFile, WORK_DIR } from './lib/bench-file.js'
import { benchToken, type CliServer, fdKindChanges, fdKinds, openFds, startCliServer } from './lib/cli-server.js'
import { curlUpload } from './lib/curl.js'
import { curlDownload, fileSha256 } from './lib/download.js'
import { freshDatabase } from './lib/fresh-database.js'
import { rssMb } from './lib/process.js'
import { abortedRequest, stalledGet } from './lib/raw-client.js'

const MIB = 1024 * 1024
const STALL_SECONDS = Number(process.env.BENCH_STALL_SECONDS ?? 20)
const STALL_MIB = Number(process.env.BENCH_STALL_MIB ?? 1024)
const ABORTED = Number(process.env.BENCH_ABORTED_UPLOADS ?? 1000)
const FD_DOWNLOADS = Number(process.env.BENCH_FD_DOWNLOADS ?? 400)
const GOAL_STALL_GROWTH_MB = 50
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL
const KEPT_ALIVE = 'client connection ESTABLISHED'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const portOf = (server: CliServer) => Number(new URL(server.url).port)
/** Descriptors other than the benchmark's own kept-alive connections (the client's to close). */
const serverFds = (server: CliServer) =>
  openFds(server.pid) - (fdKinds(server.pid, portOf(server)).get(KEPT_ALIVE) ?? 0)

/** Files under a directory, recursively (0 when it does not exist). */
async function filesUnder(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => [])
  return entries.filter((entry) => entry.isFile()).length
}

async function withServer<T>(
  label: string,
  run: (server: CliServer, dataDir: string, databaseUrl: string) => Promise<T>,
  wrap: string[] = [],
): Promise<T> {
  const database = await freshDatabase(DATABASE_URL!, `pinfold_slow_${process.pid}`)
  const dataDir = join(WORK_DIR, 'slow-clients', label)
  await rm(dataDir, { recursive: true, force: true })
  await mkdir(dataDir, { recursive: true })
  let server: CliServer | undefined
  try {
    server = await startCliServer({ DATABASE_URL: database.url, PINFOLD_DATA_DIR: dataDir }, wrap)
    return await run(server, dataDir, database.url)
  } finally {
    await server?.stop()
    await database.drop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

/** 1. Clients that stop reading a 1 GiB download. */
async function stalledDownloads(token: string): Promise<string[]> {
  const path = await benchFile(STALL_MIB * MIB)
  return withServer('stall', async (server) => {
    const uploaded = await curlUpload(server.url, token, path, { network: 'public' })
    const cid = (uploaded.body as { data?: { cid?: string } }).data?.cid
    if (uploaded.status !== 200 || !cid) throw new Error(`upload failed: ${JSON.stringify(uploaded.body)}`)
    await sleep(2000)
    const lines = [
      `| stalled clients | server RSS MB before | peak RSS MB while they hang ${STALL_SECONDS} s | growth MB (goal ≤ ${GOAL_STALL_GROWTH_MB}) | body bytes each client had when sampled, MiB | \`/healthz\` while they hang | server descriptors before / while they hang / 3 s after they go |`,
      '|---|---|---|---|---|---|---|',
    ]
    for (const clients of [1, 16]) {
      const before = rssMb(server.pid)
      const fdsBefore = openFds(server.pid)
      const downloads = Array.from({ length: clients }, () => stalledGet(server.url, `/ipfs/${cid}`, MIB))
      const statuses = await Promise.all(downloads.map((download) => download.status))
      if (statuses.some((status) => status !== 200)) throw new Error(`stalled downloads answered ${statuses}`)
      let peak = before
      let healthy = 0
      let probes = 0
      const started = Date.now()
      while (Date.now() - started < STALL_SECONDS * 1000) {
        peak = Math.max(peak, rssMb(server.pid))
        probes++
        const probe = await curlDownload(`${server.url}/healthz`).catch(() => undefined)
        if (probe?.status === 200) healthy++
        await sleep(1000)
      }
      const fdsDuring = openFds(server.pid)
      const received = downloads.map((download) => download.received() / MIB)
      const cut = downloads.filter((download) => download.ended()).length
      for (const download of downloads) download.socket.destroy()
      await sleep(3000)
      const growth = peak - before
      lines.push(
        `| ${clients} | ${before.toFixed(0)} | ${peak.toFixed(0)} | ${growth.toFixed(0)} (${growth <= GOAL_STALL_GROWTH_MB ? 'met' : 'missed'}) | ${Math.min(...received).toFixed(1)}–${Math.max(...received).toFixed(1)}${cut > 0 ? ` (${cut} cut by the server)` : ''} | ${healthy} of ${probes} answered 200 | ${fdsBefore} / ${fdsDuring} / ${openFds(server.pid)} |`,
      )
    }
    return [
      `**Clients that stop reading** a ${STALL_MIB} MiB download (\`GET /ipfs/{cid}\`, filesystem blobs) after its first MiB: their sockets are paused, so the kernel's buffers fill and the server's writes must wait. RSS sampled every second.`,
      '',
      ...lines,
    ]
  })
}

/** 2. Uploads cut mid-way, then the sweeps. */
async function abortedUploads(token: string): Promise<string[]> {
  return withServer('aborted', async (server, dataDir, databaseUrl) => {
    const blobDir = join(dataDir, 'blobs')
    const auth = { authorization: `Bearer ${token}` }
    // warm: a first upload of each kind, so lazily made directories and pools exist before counting fds
    await fetch(`${server.url}/healthz`)
    const fdsBefore = serverFds(server)
    const kindsBefore = fdKinds(server.pid, portOf(server))
    const rssBefore = rssMb(server.pid)
    const boundary = 'soakboundary'
    const multipartHead = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="network"\r\n\r\npublic\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    )
    const kinds = { multipart: 0, 'tus terminated': 0, 'tus abandoned': 0 }
    const started = Date.now()
    let next = 0
    const worker = async () => {
      for (let i = next++; i < ABORTED; i = next++) {
        if (i % 2 === 0) {
          // multipart: 1 MiB announced, 256 KiB sent
          await abortedRequest(server.url, {
            method: 'POST',
            path: '/v3/files',
            headers: { ...auth, 'content-type': `multipart/form-data; boundary=${boundary}` },
            body: Buffer.concat([multipartHead, randomBytes(256 * 1024)]),
            declaredBytes: multipartHead.length + MIB,
          })
          kinds.multipart++
          continue
        }
        const created = await fetch(`${server.url}/v3/files`, {
          method: 'POST',
          headers: {
            ...auth,
            'tus-resumable': '1.0.0',
            'upload-length': String(2 * MIB),
            'upload-metadata': `filename ${Buffer.from('cut.bin').toString('base64')},network ${Buffer.from('public').toString('base64')}`,
          },
        })
        const location = created.headers.get('location')
        if (created.status !== 201 || !location) throw new Error(`tus creation answered ${created.status}`)
        const uploadPath = new URL(location).pathname
        // a PATCH announcing 1 MiB that stops after 300 KiB (past the first 256 KiB leaf)
        await abortedRequest(server.url, {
          method: 'PATCH',
          path: uploadPath,
          headers: {
            ...auth,
            'tus-resumable': '1.0.0',
            'content-type': 'application/offset+octet-stream',
            'upload-offset': '0',
          },
          body: randomBytes(300 * 1024),
          declaredBytes: MIB,
        })
        if (i % 4 === 1) {
          // terminated by its client once the PATCH has been given up
          for (let attempt = 0; ; attempt++) {
            const res = await fetch(`${server.url}${uploadPath}`, {
              method: 'DELETE',
              headers: { ...auth, 'tus-resumable': '1.0.0' },
            })
            await res.arrayBuffer()
            if (res.status === 204) break
            // the server may still be finishing the cut PATCH (the upload is locked meanwhile)
            if (attempt > 50 || res.status >= 500) throw new Error(`tus DELETE answered ${res.status}`)
            await sleep(100)
          }
          kinds['tus terminated']++
        } else kinds['tus abandoned']++
      }
    }
    await Promise.all(Array.from({ length: 16 }, worker))
    const seconds = (Date.now() - started) / 1000
    await sleep(3000)
    const tempAfter = await filesUnder(join(blobDir, '.tmp'))
    const stagedAfter = await filesUnder(join(blobDir, '.staged'))
    const blobsAfter = await filesUnder(join(blobDir, 'blobs'))
    // the pg pool closes connections idle for 10 s: descriptors are compared after that
    await sleep(12_000)
    const tempLater = await filesUnder(join(blobDir, '.tmp'))
    const fdsAfter = serverFds(server)
    const kindsAfter = fdKinds(server.pid, portOf(server))
    const rssAfter = rssMb(server.pid)
    const listed = await fetch(`${server.url}/v3/files/public?limit=10`, { headers: auth })
    const files = ((await listed.json()) as { data: { files: unknown[] } }).data.files.length

    // the sweeps the server runs on timers (hourly for abandoned sessions and orphan blobs), run
    // here with the clock moved past the sessions' 24 h expiry, on the same database and directory
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
    const blobs = createFsBlobStore({ directory: blobDir })
    const service = createFileService({ records: createPostgresRecordStore({ client: fromPgPool(pool) }), blobs })
    const swept = await service.uploads.sweepExpiredSessions(new Date(Date.now() + 25 * 60 * 60 * 1000))
    const orphans = await service.maintenance.sweepOrphanBlobs({ olderThanMs: 0 })
    const staleTemp = await blobs.sweepTemp({ olderThanMs: 0 })
    await pool.end()
    const tempSwept = await filesUnder(join(blobDir, '.tmp'))
    const stagedSwept = await filesUnder(join(blobDir, '.staged'))
    const blobsSwept = await filesUnder(join(blobDir, 'blobs'))
    const changes = fdKindChanges(kindsBefore, kindsAfter)
    return [
      `**${ABORTED} aborted uploads** (16 at a time, ${seconds.toFixed(0)} s): ${kinds.multipart} multipart bodies announcing 1 MiB cut after 256 KiB; ${kinds['tus terminated'] + kinds['tus abandoned']} tus uploads of 2 MiB whose first PATCH (announcing 1 MiB) is cut after 300 KiB, ${kinds['tus terminated']} of them then terminated with \`DELETE\`, ${kinds['tus abandoned']} abandoned. Files in the blob directory (\`.tmp\` / \`.staged\` / \`blobs\`):`,
      '',
      '| when | temp files (goal 0) | staged files | blob files | server descriptors (without the load’s kept-alive connections) | server RSS MB | file records |',
      '|---|---|---|---|---|---|---|',
      `| before | 0 | 0 | 0 | ${fdsBefore} | ${rssBefore.toFixed(0)} | 0 |`,
      `| 3 s after the last abort (descriptors 15 s after) | ${tempAfter}${tempLater === tempAfter ? '' : ` (${tempLater} 15 s after)`} | ${stagedAfter} (abandoned sessions stay resumable until they expire) | ${blobsAfter} | ${fdsAfter}${changes.length > 0 ? ` (${changes.join(', ')})` : ''} | ${rssAfter.toFixed(0)} | ${files} |`,
      `| after the sweeps (${swept} expired sessions, ${orphans.deleted} orphan blobs, ${staleTemp} temp files removed) | ${tempSwept} (${tempSwept === 0 ? 'met' : 'missed'}) | ${stagedSwept} (${stagedSwept === 0 ? 'met' : 'missed'}) | ${blobsSwept} (${blobsSwept === 0 ? 'met' : 'missed'}) | | | |`,
      '',
      `Requests the server logged as failed: ${server.failures.length}; other errors logged: ${server.errors.length}.`,
    ]
  })
}

/** 3. Many downloads held open by a server allowed 256 descriptors. */
async function descriptorLimit(token: string): Promise<string[]> {
  const path = await benchFile(8 * MIB)
  const sha = await fileSha256(path)
  return withServer(
    'nofile',
    async (server) => {
      const uploaded = await curlUpload(server.url, token, path, { network: 'public' })
      const cid = (uploaded.body as { data?: { cid?: string } }).data?.cid
      if (uploaded.status !== 200 || !cid) throw new Error(`upload failed: ${JSON.stringify(uploaded.body)}`)
      const fdsBefore = openFds(server.pid)
      const downloads = []
      for (let i = 0; i < FD_DOWNLOADS; i++) {
        downloads.push(stalledGet(server.url, `/ipfs/${cid}`, 64 * 1024))
        if (i % 50 === 49) await sleep(200)
      }
      const statuses = await Promise.race([
        Promise.all(downloads.map((download) => download.status)),
        sleep(60_000).then(() => undefined),
      ])
      const fdsDuring = openFds(server.pid)
      const counts = new Map<string, number>()
      for (const [i, download] of downloads.entries()) {
        const status = statuses?.[i]
        const key =
          status === undefined ? 'no answer in 60 s' : status === 0 ? 'connection closed, no answer' : String(status)
        counts.set(key, (counts.get(key) ?? 0) + 1)
        void download
      }
      const alive = server.child.exitCode === null && server.child.signalCode === null
      for (const download of downloads) download.socket.destroy()
      await sleep(3000)
      const health = await curlDownload(`${server.url}/healthz`).catch(() => undefined)
      const again = await curlDownload(`${server.url}/ipfs/${cid}`, { hash: true }).catch(() => undefined)
      const fdsAfter = openFds(server.pid)
      const serves = again?.status === 200 && again.sha256 === sha
      return [
        `**\`prlimit --nofile=256\`**: ${FD_DOWNLOADS} downloads of an 8 MiB file held open at once (each client reads 64 KiB and stops). Answers: ${[...counts].map(([key, n]) => `${key} × ${n}`).join(', ')}. Server ${alive ? 'alive' : '**exited**'} while they hung (descriptors ${fdsBefore} before, ${fdsDuring} while they hung); once they were gone \`/healthz\` answered ${health?.status ?? 'nothing'} and a full download ${serves ? 'returned the file (SHA-256 checked)' : `**failed** (${again?.status ?? 'no answer'})`}, descriptors ${fdsAfter}. Requests the server logged as failed: ${server.failures.length}${server.failures.length > 0 ? ` (first: ${JSON.parse(server.failures[0]!).error ?? ''})` : ''}.`,
      ]
    },
    ['prlimit', '--nofile=256:256', '--'],
  )
}

/** 4. A read-only data directory. */
async function readOnlyDataDir(): Promise<string[]> {
  if (spawnSync('unshare', ['-rm', 'true']).status !== 0) {
    return ['**Read-only data directory**: not measured (`unshare -rm` is not allowed here).']
  }
  const dataDir = join(WORK_DIR, 'slow-clients', 'read-only')
  await rm(dataDir, { recursive: true, force: true })
  await mkdir(dataDir, { recursive: true })
  const rows: string[] = []
  for (const [label, env] of [
    ['embedded default', { PINFOLD_STORAGE: 'embedded', PINFOLD_AUTH_SECRET: '', DATABASE_URL: '' }],
    [
      'records in PostgreSQL, blobs in the data directory',
      { PINFOLD_AUTH_SECRET: 'bench-secret-0123456789abcdef0123456789abcdef', DATABASE_URL: DATABASE_URL! },
    ],
  ] as const) {
    const started = Date.now()
    const script = 'mount --bind "$RO" "$RO" && mount -o remount,bind,ro "$RO" && exec "$@"'
    const child = spawn(
      'unshare',
      ['-rm', 'sh', '-c', script, 'sh', process.execPath, 'packages/server/dist/cli.js', 'serve'],
      {
        env: { ...process.env, PORT: '0', RO: dataDir, PINFOLD_DATA_DIR: dataDir, PINFOLD_S3_BUCKET: '', ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk
      if (stdout.includes('"pinfold listening"')) child.kill('SIGKILL')
    })
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk
    })
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve))
    const listened = stdout.includes('"pinfold listening"')
    rows.push(
      `| ${label} | ${listened ? '**started**' : 'no'} | ${code} | ${stderr.trim().split('\n').length} | \`${stderr.trim().replaceAll(dataDir, '<dir>').replaceAll('|', '\\|')}\` | ${((Date.now() - started) / 1000).toFixed(1)} |`,
    )
  }
  await rm(dataDir, { recursive: true, force: true })
  return [
    '**Read-only data directory** (a read-only bind mount in a mount namespace of its own, `unshare -rm`, since root ignores permission bits):',
    '',
    '| storage | listened | exit status | stderr lines | stderr | s to exit |',
    '|---|---|---|---|---|---|',
    ...rows,
  ]
}

if (!DATABASE_URL) {
  console.log(
    'No `BENCH_DATABASE_URL` or `TEST_DATABASE_URL`: these servers keep records in PostgreSQL; measured nothing.',
  )
} else {
  const token = await benchToken()
  const parts = (process.env.BENCH_SLOW_PARTS ?? 'stall,aborted,nofile,readonly').split(',')
  const out: string[] = []
  if (parts.includes('stall')) out.push(...(await stalledDownloads(token)), '')
  if (parts.includes('aborted')) out.push(...(await abortedUploads(token)), '')
  if (parts.includes('nofile')) out.push(...(await descriptorLimit(token)), '')
  if (parts.includes('readonly')) out.push(...(await readOnlyDataDir()), '')
  out.push(`Load average ${loadavg()[0]!.toFixed(1)} at the end.`)
  console.log(out.join('\n'))
}
