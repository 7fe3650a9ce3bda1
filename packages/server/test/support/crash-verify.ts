import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { FileService } from '@pinfold/core'
import { readVerifiedCar } from '@pinfold/testing/gateway'
import { cidOf } from '@pinfold/testing/tus'
import { CID } from 'multiformats/cid'
import {
  type Belief,
  bytesOf,
  isKnown,
  type KnownFile,
  type KnownSession,
  type Ledger,
  sha256,
} from './crash-ledger.js'
import { patchSession } from './crash-load.js'
import type { InspectableStores } from './crash-stores.js'
import type { SeededDraws } from './seeded-draws.js'

export interface VerifyTarget {
  url: string
  token: string
  ledger: Ledger
  stores: InspectableStores
  service: FileService
  dataDir: string
  /** How long a resumable upload at its final offset may take to name its file: the completion's lease. */
  completionWaitMs: number
  /** How long accepted pins may take to be pinned (the killed process's lease runs out first). */
  pinWaitMs: number
  /** When the restarted server started: every blob the killed process made is older. */
  restartedAt: number
  /**
   * Which files' bytes are read back: all of them (the last restart), or those acknowledged or
   * changed since the last check and `sample.count` drawn from the rest (every record's blob is
   * checked by SQL at every restart either way).
   */
  reads: 'all' | { sample: SeededDraws; count: number }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Everything the crash harness holds a restarted server to, as a list of violations (empty: it
 * held). In order: the orphan sweep runs over what the dead process left; accepted pins finish;
 * every resumable upload resumes at or above its acknowledged offset and completes; every
 * acknowledged file exists (or not) with the group and swap it was left with, and those of
 * `reads` read back byte-exact through `/ipfs/{cid}` and as a CAR whose blocks re-hash; then, with
 * nothing in flight, the sweeps run and no record points at missing bytes, and the blobs are
 * exactly those the records own.
 */
export async function verifyRestarted(target: VerifyTarget): Promise<string[]> {
  const violations: string[] = []
  const { ledger } = target
  // the orphan sweep comes first, as the hourly one may an hour after the crash: whatever the dead
  // process left that no record owns goes, and what a client's retry still needs must stay
  await target.service.maintenance.sweepOrphanBlobs({ olderThanMs: Date.now() - target.restartedAt })
  await finishPins(target, violations)
  for (const session of [...ledger.sessions]) await finishSession(target, session, violations)
  const files = [...ledger.files.values()]
  const reread = new Set(files.filter((f) => target.reads === 'all' || f.unchecked))
  if (target.reads !== 'all') {
    const rest = files.filter((f) => !reread.has(f))
    for (let i = 0; i < target.reads.count && rest.length > 0; i++) {
      reread.add(rest.splice(target.reads.sample.below(rest.length), 1)[0]!)
    }
  }
  // four at a time: the files are independent, and a long run holds a few hundred
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      for (let file = files.shift(); file; file = files.shift()) {
        await checkFile(target, file, reread.has(file), violations)
      }
    }),
  )
  await checkStores(target, violations)
  violations.push(...ledger.anomalies.splice(0))
  return violations
}

function api(target: VerifyTarget, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set('authorization', `Bearer ${target.token}`)
  return fetch(`${target.url}${path}`, { ...init, headers })
}

async function finishPins(target: VerifyTarget, violations: string[]) {
  const { ledger } = target
  for (const pin of [...ledger.pins]) {
    const deadline = Date.now() + target.pinWaitMs
    for (;;) {
      const res = await api(target, `/v3/files/public/${pin.requestId}`)
      await res.body?.cancel()
      if (res.status === 200) {
        ledger.pins.delete(pin)
        ledger.addFile(pin.requestId, pin.content, 'pin by CID')
        break
      }
      if (Date.now() > deadline) {
        const { rows } = await target.stores.sql.query('select state, reason from pin_requests where id = $1', [
          pin.requestId,
        ])
        violations.push(
          `accepted pin ${pin.requestId} of ${pin.content.cid} not pinned after ${target.pinWaitMs} ms: ${JSON.stringify(rows[0] ?? 'no request')}`,
        )
        ledger.pins.delete(pin)
        break
      }
      await sleep(200)
    }
  }
}

/**
 * Resumes a resumable upload where the server says it is (never below what it acknowledged),
 * sends the rest, and retries its completion with bodiless PATCHes at the final offset until one
 * names the file, for at most `completionWaitMs`: past that the session is stuck.
 */
async function finishSession(target: VerifyTarget, session: KnownSession, violations: string[]) {
  const { ledger } = target
  const length = session.recipe.size
  const location = session.location.replace(/^https?:\/\/[^/]+/, target.url)
  const what = `${session.how} ${location.split('/').at(-2)} (acknowledged ${session.acked} of ${length})`
  const head = await fetch(location, { method: 'HEAD', headers: { 'tus-resumable': '1.0.0' } })
  if (head.status === 404) {
    // completed by a PATCH whose answer the kill cut: the file must be there
    const cid = await cidOf(bytesOf(session.recipe))
    const res = await api(target, `/v3/files/public?cid=${cid}`)
    const files = ((await res.json()) as { data: { files: { id: string }[] } }).data.files
    ledger.sessions.delete(session)
    if (files.length === 1)
      ledger.addFile(files[0]!.id, { cid, entries: [{ path: '', recipe: session.recipe }] }, session.how)
    else violations.push(`${what}: the session is gone and ${files.length} files hold its CID ${cid}`)
    return
  }
  const offset = Number(head.headers.get('upload-offset'))
  if (head.status !== 200 || offset < session.acked || offset > length) {
    violations.push(`${what}: HEAD answered ${head.status} with offset ${head.headers.get('upload-offset')}`)
    ledger.sessions.delete(session)
    return
  }
  session.acked = offset
  while (ledger.sessions.has(session) && session.acked < length) {
    const before = session.acked
    await patchSession(target.url, session, 512 * 1024, ledger)
    if (session.acked === before) {
      violations.push(`${what}: a PATCH at ${before} did not advance`)
      ledger.sessions.delete(session)
      return
    }
  }
  const deadline = Date.now() + target.completionWaitMs
  while (ledger.sessions.has(session)) {
    const res = await fetch(location, {
      method: 'PATCH',
      headers: {
        'tus-resumable': '1.0.0',
        'content-type': 'application/offset+octet-stream',
        'upload-offset': String(length),
      },
    })
    await res.body?.cancel()
    const cid = res.headers.get('upload-cid')
    const id = res.headers.get('upload-file-id')
    if (res.status === 204 && cid && id) {
      ledger.sessions.delete(session)
      ledger.addFile(id, { cid, entries: [{ path: '', recipe: session.recipe }] }, session.how)
      return
    }
    if (Date.now() > deadline) {
      violations.push(
        `${what}: stuck at its final offset, no PATCH named its file in ${target.completionWaitMs} ms (last answer ${res.status})`,
      )
      ledger.sessions.delete(session)
      return
    }
    await sleep(250)
  }
}

/** Reads what the server holds of a file, settles what the kill left uncertain, and checks its bytes. */
async function checkFile(target: VerifyTarget, file: KnownFile, readBytes: boolean, violations: string[]) {
  const what = `${file.how} ${file.id} (${file.content.cid})`
  const res = await api(target, `/v3/files/public/${file.id}`)
  if (res.status !== 200 && res.status !== 404) {
    violations.push(`${what}: GET answered ${res.status}`)
    return
  }
  const exists = res.status === 200
  if (!settle(file, 'exists', exists)) violations.push(`${what}: exists is ${exists}, expected ${show(file.exists)}`)
  if (!exists) {
    await res.body?.cancel()
    target.ledger.files.delete(file.id)
    const served = await fetch(`${target.url}/ipfs/${file.content.cid}`)
    await served.body?.cancel()
    if (served.status !== 404) violations.push(`${what}: deleted, yet /ipfs/ answers ${served.status}`)
    return
  }
  const record = ((await res.json()) as { data: { cid: string; group_id: string | null } }).data
  if (record.cid !== file.content.cid) violations.push(`${what}: its record names ${record.cid}`)
  if (!settle(file, 'group', record.group_id)) {
    violations.push(`${what}: in group ${record.group_id}, expected ${show(file.group)}`)
  }
  await checkSwap(target, file, what, violations)
  if (!readBytes) return
  await checkBytes(target, file, what, violations)
  file.unchecked = false
}

async function checkSwap(target: VerifyTarget, file: KnownFile, what: string, violations: string[]) {
  if (isKnown(file.swap) && file.swap.known === null) return
  const res = await api(target, `/v3/files/public/swap/${file.content.cid}`)
  const mapped =
    res.status === 200 ? (((await res.json()) as { data: { mapped_cid: string }[] }).data[0]?.mapped_cid ?? null) : null
  if (res.status !== 200) await res.body?.cancel()
  if (!settle(file, 'swap', mapped)) violations.push(`${what}: swapped to ${mapped}, expected ${show(file.swap)}`)
}

async function checkBytes(target: VerifyTarget, file: KnownFile, what: string, violations: string[]) {
  const { cid, entries } = file.content
  for (const entry of entries) {
    const path = entry.path === '' ? '' : `/${entry.path}`
    const res = await fetch(`${target.url}/ipfs/${cid}${path}`)
    const body = new Uint8Array(await res.arrayBuffer())
    const expected = bytesOf(entry.recipe)
    if (res.status !== 200 || sha256(body) !== sha256(expected)) {
      violations.push(
        `${what}: /ipfs/${cid}${path} answered ${res.status} with ${body.length} bytes, not its ${expected.length}`,
      )
    }
  }
  const car = await fetch(`${target.url}/ipfs/${cid}?format=car`)
  if (car.status !== 200) {
    violations.push(`${what}: its CAR answered ${car.status}`)
    await car.body?.cancel()
    return
  }
  try {
    const verified = await readVerifiedCar(new Uint8Array(await car.arrayBuffer()), CID.parse(cid))
    for (const entry of entries) {
      const bytes = entry.path === '' ? await verified.reassemble() : await verified.readFile(`${cid}/${entry.path}`)
      if (sha256(bytes) !== sha256(bytesOf(entry.recipe)))
        violations.push(`${what}: its CAR holds other bytes at '${entry.path}'`)
    }
  } catch (error) {
    violations.push(`${what}: its CAR does not verify: ${String(error)}`)
  }
}

/** Checks `actual` against the belief and, when it is one of the possible values, makes it the known one. */
function settle<F extends 'exists' | 'group' | 'swap'>(file: KnownFile, field: F, actual: unknown): boolean {
  const belief = file[field] as Belief<unknown>
  const allowed = isKnown(belief) ? [belief.known] : belief.oneOf
  if (!allowed.includes(actual)) return false
  ;(file[field] as Belief<unknown>) = { known: actual }
  return true
}

const show = (belief: Belief<unknown>) =>
  isKnown(belief) ? JSON.stringify(belief.known) : `one of ${JSON.stringify(belief.oneOf)}`

/**
 * With nothing in flight: pin jobs done, then the sweeps an operator's server runs on timers, run
 * now and for everything (abandoned sessions as if their day had passed, orphan blobs, temp and
 * staging files of any age). Afterwards every record's bytes are there and nothing else is.
 */
async function checkStores(target: VerifyTarget, violations: string[]) {
  const { sql, blobs } = target.stores
  const deadline = Date.now() + target.pinWaitMs
  for (;;) {
    const { rows } = await sql.query(
      "select count(*)::int as n from pin_requests where state in ('queued', 'retrieving')",
    )
    if (rows[0]!.n === 0) break
    if (Date.now() > deadline) {
      violations.push(`${rows[0]!.n} pin requests still queued or running after ${target.pinWaitMs} ms`)
      break
    }
    await sleep(200)
  }
  const failed = await sql.query("select id, cid, reason from pin_requests where state = 'failed'")
  for (const row of failed.rows) violations.push(`pin request ${row.id} of ${row.cid} failed: ${row.reason}`)

  const dayLater = new Date(Date.now() + 25 * 60 * 60 * 1000)
  await target.service.uploads.sweepExpiredSessions(dayLater)
  await target.service.maintenance.sweepOrphanBlobs({ olderThanMs: 0 })
  await blobs.sweepTemp({ olderThanMs: 0 })
  await blobs.sweepStaged({ olderThanMs: 0 })

  const sessions = await sql.query('select id, upload_offset, length from upload_sessions')
  for (const row of sessions.rows)
    violations.push(`upload session ${row.id} survived the session sweep: ${JSON.stringify(row)}`)

  const sizes = new Map<string, number>()
  for await (const { key, size } of blobs.list()) sizes.set(key, size)
  const contents = await sql.query('select cid, blob_key, kind from contents')
  const owned = new Set<string>()
  for (const row of contents.rows) {
    const key = row.blob_key as string
    owned.add(key)
    if (sizes.has(`${key}.idx`)) owned.add(`${key}.idx`)
    if (!sizes.has(key)) violations.push(`content ${row.cid} (${row.kind}) points at missing blob ${key}`)
  }
  const reaches = await sql.query(
    'select blob_key, source, max(byte_offset + byte_length)::bigint as reach, count(*)::int as n from blocks group by blob_key, source',
  )
  for (const row of reaches.rows) {
    const key = row.blob_key as string
    const holder = row.source === 'sidecar' ? `${key}.idx` : key
    const size = sizes.get(holder)
    if (!owned.has(key)) violations.push(`${row.n} block index rows (${row.source}) of ${key}, which no content owns`)
    else if (size === undefined || size < Number(row.reach)) {
      violations.push(
        `${row.n} block index rows (${row.source}) reach byte ${row.reach} of ${holder}, which holds ${size ?? 'nothing'}`,
      )
    }
  }
  const unowned = [...sizes.keys()].filter((key) => !owned.has(key))
  if (unowned.length > 0 || sizes.size !== owned.size) {
    violations.push(
      `after the sweeps the store holds ${sizes.size} blobs, the records own ${owned.size}; unowned: ${unowned.slice(0, 8).join(', ')}${unowned.length > 8 ? ', …' : ''}`,
    )
  }
  for (const dir of ['.staged', '.tmp']) {
    const left = await readdir(join(target.dataDir, 'blobs', dir)).catch(() => [])
    if (left.length > 0)
      violations.push(`${left.length} files left in blobs/${dir} after the sweeps: ${left.slice(0, 4).join(', ')}`)
  }
}
