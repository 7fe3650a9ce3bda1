import { form } from '@pinfold/testing/test-api'
import { b64 } from '@pinfold/testing/tus'
import { folderForm } from '@pinfold/testing/uploads'
import { bytesOf, type Content, type KnownSession, type Ledger, type Recipe } from './crash-ledger.js'
import type { SeededDraws } from './seeded-draws.js'

/** Where pinned and CAR-uploaded content comes from: a second server that holds it. */
export interface ContentSource {
  /** Stores `bytes` there as a public file; resolves to its CID. */
  add(bytes: Uint8Array): Promise<string>
  /** The CAR of a CID held there. */
  car(cid: string): Promise<Uint8Array>
}

export interface LoadTarget {
  url: string
  token: string
  ledger: Ledger
  source: ContentSource
  /** Called as a PATCH that completes a resumable upload is sent: a kill may aim at its completion. */
  onCompletingPatch?: () => void
}

const KiB = 1024
const LEAF = 256 * KiB

/** How often each kind of request is drawn. */
const MIX = {
  small: 22,
  multiBlock: 12,
  folder: 9,
  car: 7,
  tus: 24,
  remove: 8,
  group: 9,
  swap: 5,
  pin: 4,
}

/**
 * Mixed load from `workers` concurrent clients until `stop()`: each client draws its requests from
 * its own seeded sequence and records in the ledger what the server acknowledged. `stop()` lets no
 * new request start; the requests in flight end when the server dies under them.
 */
export function startLoad(target: LoadTarget, draws: SeededDraws, workers: number): { stop(): Promise<void> } {
  let stopped = false
  const loops = Array.from({ length: workers }, (_, w) => {
    const client = new LoadClient(target, draws.child(`worker-${w}`))
    return (async () => {
      while (!stopped) await client.next()
    })()
  })
  return {
    async stop() {
      stopped = true
      await Promise.all(loops)
    },
  }
}

class LoadClient {
  private step = 0

  constructor(
    private readonly target: LoadTarget,
    private readonly draws: SeededDraws,
  ) {}

  private get ledger() {
    return this.target.ledger
  }

  async next(): Promise<void> {
    const kind = this.draws.weighted(MIX)
    const recipe = (size: number): Recipe => ({ seed: `${this.draws.label}/${this.step}`, size })
    this.step++
    try {
      switch (kind) {
        case 'small':
          return await this.uploadFile(recipe(this.draws.between(1, 64 * KiB)), 'small upload')
        case 'multiBlock':
          return await this.uploadFile(recipe(this.draws.between(LEAF + 1, 4 * LEAF + 7)), 'multi-block upload')
        case 'folder':
          return await this.uploadFolder()
        case 'car':
          return await this.uploadCar(recipe(this.draws.between(20 * KiB, 600 * KiB)))
        case 'tus':
          return await this.tus()
        case 'remove':
          return await this.remove()
        case 'group':
          return await this.group()
        case 'swap':
          return await this.swap()
        case 'pin':
          return await this.pin(recipe(this.draws.between(100 * KiB, 700 * KiB)))
      }
    } catch {
      // no answer: the server died under this request; what it did is read after the restart
    }
  }

  private send(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    headers.set('authorization', `Bearer ${this.target.token}`)
    return fetch(`${this.target.url}${path}`, { ...init, headers })
  }

  /** The `data` of a 2xx JSON answer; an anomaly for a 5xx, undefined for a refusal. */
  private async acknowledged<T>(res: Response, what: string): Promise<T | undefined> {
    if (!res.ok) {
      if (res.status >= 500) this.ledger.anomalies.push(`${what}: ${res.status} ${await res.text()}`)
      else await res.body?.cancel()
      return undefined
    }
    return ((await res.json()) as { data: T }).data
  }

  private async recordUpload(res: Response, content: Omit<Content, 'cid'>, how: string, expectedCid?: string) {
    const data = await this.acknowledged<{ id: string; cid: string }>(res, how)
    if (!data) return
    if (expectedCid !== undefined && data.cid !== expectedCid) {
      this.ledger.anomalies.push(`${how} ${data.id}: acknowledged CID ${data.cid}, the content's is ${expectedCid}`)
    }
    this.ledger.addFile(data.id, { ...content, cid: data.cid }, how)
  }

  private async uploadFile(recipe: Recipe, how: string) {
    const body = form({ network: 'public', name: recipe.seed }, { bytes: bytesOf(recipe), name: 'file.bin' })
    const res = await this.send('/v3/files', { method: 'POST', body })
    await this.recordUpload(res, { entries: [{ path: '', recipe }] }, how)
  }

  private async uploadFolder() {
    const count = this.draws.between(2, 4)
    const entries = Array.from({ length: count }, (_, i) => ({
      path: i === count - 1 && this.draws.below(2) === 0 ? `nested/file-${i}.bin` : `file-${i}.bin`,
      recipe: { seed: `${this.draws.label}/${this.step}/${i}`, size: this.draws.between(1, 300 * KiB) },
    }))
    const body = folderForm(
      entries.map((e) => ({ path: `folder/${e.path}`, bytes: bytesOf(e.recipe) })),
      { network: 'public' },
    )
    const res = await this.send('/v3/files', { method: 'POST', body })
    await this.recordUpload(res, { entries }, 'folder upload')
  }

  private async uploadCar(recipe: Recipe) {
    const cid = await this.target.source.add(bytesOf(recipe))
    const car = await this.target.source.car(cid)
    const body = form({ network: 'public', car: 'true' }, { bytes: car, name: 'dag.car' })
    const res = await this.send('/v3/files', { method: 'POST', body })
    await this.recordUpload(res, { entries: [{ path: '', recipe }] }, 'CAR upload', cid)
  }

  private async pin(recipe: Recipe) {
    const cid = await this.target.source.add(bytesOf(recipe))
    const res = await this.send('/v3/files/public/pin_by_cid', {
      method: 'POST',
      body: JSON.stringify({ cid, name: recipe.seed }),
    })
    const data = await this.acknowledged<{ id: string }>(res, 'pin by CID')
    if (data) this.ledger.pins.add({ requestId: data.id, content: { cid, entries: [{ path: '', recipe }] } })
  }

  /** Creates a resumable upload, or sends the next PATCH of an idle one. */
  private async tus() {
    const session = [...this.ledger.sessions].find((s) => !s.busy)
    if (!session) return this.createSession()
    session.busy = true
    try {
      const size = this.draws.between(16 * KiB, 400 * KiB)
      if (session.acked + size >= session.recipe.size) this.target.onCompletingPatch?.()
      await patchSession(this.target.url, session, size, this.ledger)
    } finally {
      session.busy = false
    }
  }

  private async createSession() {
    const recipe: Recipe = { seed: `${this.draws.label}/${this.step}`, size: this.draws.between(LEAF, 6 * LEAF + 3) }
    const res = await this.send('/v3/files', {
      method: 'POST',
      headers: {
        'tus-resumable': '1.0.0',
        'upload-length': String(recipe.size),
        'upload-metadata': `filename ${b64('tus.bin')},network ${b64('public')}`,
      },
    })
    await res.body?.cancel()
    const location = res.headers.get('location')
    if (res.status !== 201 || !location) {
      this.ledger.anomalies.push(`tus creation: ${res.status}`)
      return
    }
    this.ledger.sessions.add({ location, recipe, acked: 0, how: 'resumable upload', busy: false })
  }

  private async remove() {
    const file = this.pickIdle()
    if (!file) return
    await this.ledger.change(
      file,
      'exists',
      false,
      () => this.send(`/v3/files/public/${file.id}`, { method: 'DELETE' }),
      `delete ${file.id}`,
    )
  }

  private async group() {
    const { groups } = this.ledger
    if (groups.length === 0 || this.draws.below(5) === 0) {
      const res = await this.send('/v3/groups/public', {
        method: 'POST',
        body: JSON.stringify({ name: `group-${this.draws.label}-${this.step}` }),
      })
      const data = await this.acknowledged<{ id: string }>(res, 'group creation')
      if (data) groups.push(data.id)
      return
    }
    const file = this.pickIdle()
    if (!file || !('known' in file.group)) return
    const current = file.group.known
    const group = current ?? this.draws.pick(groups)
    await this.ledger.change(
      file,
      'group',
      current === null ? group : null,
      () => this.send(`/v3/groups/public/${group}/ids/${file.id}`, { method: current === null ? 'PUT' : 'DELETE' }),
      `group change of ${file.id}`,
    )
  }

  private async swap() {
    const from = this.pickIdle()
    const to = this.pickIdle()
    if (!from || !to || from === to) return
    await this.ledger.change(
      from,
      'swap',
      to.content.cid,
      () =>
        this.send(`/v3/files/public/swap/${from.content.cid}`, {
          method: 'PUT',
          body: JSON.stringify({ swap_cid: to.content.cid }),
        }),
      `swap of ${from.id}`,
    )
  }

  private pickIdle() {
    const idle = this.ledger.idleFiles()
    return idle.length === 0 ? undefined : this.draws.pick(idle)
  }
}

/**
 * Sends the next `size` bytes of a resumable upload at its acknowledged offset. The answer's
 * offset becomes the acknowledged one; the one that completes it names the file, which the ledger
 * then holds as an acknowledged upload.
 */
export async function patchSession(url: string, session: KnownSession, size: number, ledger: Ledger): Promise<void> {
  const bytes = bytesOf(session.recipe).subarray(session.acked, session.acked + size)
  const res = await fetch(session.location.replace(/^https?:\/\/[^/]+/, url), {
    method: 'PATCH',
    headers: {
      'tus-resumable': '1.0.0',
      'content-type': 'application/offset+octet-stream',
      'upload-offset': String(session.acked),
    },
    body: bytes,
  })
  await res.body?.cancel()
  if (res.status !== 204) {
    ledger.anomalies.push(`PATCH of ${session.location} at ${session.acked}: ${res.status}`)
    return
  }
  session.acked = Number(res.headers.get('upload-offset'))
  const cid = res.headers.get('upload-cid')
  const id = res.headers.get('upload-file-id')
  if (cid && id) {
    ledger.sessions.delete(session)
    ledger.addFile(id, { cid, entries: [{ path: '', recipe: session.recipe }] }, session.how)
  } else if (session.acked === session.recipe.size) {
    ledger.anomalies.push(`PATCH of ${session.location} reached the length and named no file`)
  }
}
