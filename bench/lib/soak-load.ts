import { createHash, randomBytes } from 'node:crypto'

/** What the load knows it created: every file it was told about, by id. */
export interface LedgerEntry {
  id: string
  cid: string
  name: string
  sha256: string
  deleted: boolean
  /** An operation on this file is in flight: others pick another file. */
  busy: boolean
}

export interface LoadTally {
  /** Requests by operation and status, e.g. `upload 200`. */
  statuses: Map<string, number>
  /** Answers that were not what the operation expects (the first few, in full). */
  unexpected: string[]
  unexpectedCount: number
  serverErrors: number
  /** Requests that got no answer (connection refused, reset); a created file may then be unknown to the ledger. */
  networkErrors: number
  requests: number
}

export interface SoakTarget {
  urls: string[]
  token: string
  /** A file of a few MiB uploaded before the load, downloaded now and then. */
  big: { cid: string; sha256: string }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/**
 * Mixed concurrent load: `workers` loops, each picking an operation by weight and an instance at
 * random for every request, until `until`. Small multipart uploads (new bytes, or bytes already
 * stored: the shared CID path), resumable uploads whose creation and PATCHes land on different
 * instances, reads of records and of content through the gateway (bytes checked), list pages,
 * renames and deletes. Every created file goes into the ledger, which the caller checks against
 * the server afterwards.
 */
export async function runMixedLoad(
  target: SoakTarget,
  ledger: Map<string, LedgerEntry>,
  { workers, until }: { workers: number; until: number },
): Promise<LoadTally> {
  const tally: LoadTally = {
    statuses: new Map(),
    unexpected: [],
    unexpectedCount: 0,
    serverErrors: 0,
    networkErrors: 0,
    requests: 0,
  }
  const auth = { authorization: `Bearer ${target.token}` }
  const instance = () => target.urls[Math.floor(Math.random() * target.urls.length)]!
  let sequence = 0

  async function call(op: string, expected: number[], url: string, init: RequestInit = {}): Promise<Response | null> {
    tally.requests++
    let res: Response
    try {
      res = await fetch(url, { ...init, headers: { ...auth, ...(init.headers as Record<string, string>) } })
    } catch (error) {
      tally.networkErrors++
      note(`${op}: no answer: ${String((error as Error).cause ?? error)}`)
      return null
    }
    const key = `${op} ${res.status}`
    tally.statuses.set(key, (tally.statuses.get(key) ?? 0) + 1)
    if (res.status >= 500) tally.serverErrors++
    if (!expected.includes(res.status)) {
      note(`${op}: ${res.status} ${await res.text().catch(() => '')}`.slice(0, 400))
      return null
    }
    return res
  }
  function note(line: string) {
    tally.unexpectedCount++
    if (tally.unexpected.length < 20) tally.unexpected.push(line)
  }

  /** A live file no other operation is using, marked busy; undefined when none is free. */
  function pick(): LedgerEntry | undefined {
    const live = [...ledger.values()]
    for (let attempt = 0; attempt < 8 && live.length > 0; attempt++) {
      const entry = live[Math.floor(Math.random() * live.length)]!
      if (!entry.busy && !entry.deleted) {
        entry.busy = true
        return entry
      }
    }
    return undefined
  }
  const recent: Uint8Array[] = []

  const operations: [weight: number, run: () => Promise<void>][] = [
    [
      30,
      async () => {
        // new bytes, or now and then bytes stored before (a second record of one content)
        const bytes =
          recent.length > 0 && Math.random() < 0.15
            ? recent[Math.floor(Math.random() * recent.length)]!
            : randomBytes(1024 + Math.floor(Math.random() * 63 * 1024))
        if (recent.length < 32) recent.push(bytes)
        const name = `soak-${process.pid}-${sequence++}.bin`
        const form = new FormData()
        form.set('file', new Blob([bytes]), name)
        form.set('network', 'public')
        const res = await call('upload', [200], `${instance()}/v3/files`, { method: 'POST', body: form })
        if (!res) return
        const { data } = (await res.json()) as { data: { id: string; cid: string } }
        ledger.set(data.id, { id: data.id, cid: data.cid, name, sha256: sha256(bytes), deleted: false, busy: false })
      },
    ],
    [
      5,
      async () => {
        // resumable: created on one instance, two PATCHes on instances picked again each time
        const bytes = randomBytes(192 * 1024 + Math.floor(Math.random() * 256 * 1024))
        const name = `soak-tus-${process.pid}-${sequence++}.bin`
        const metadata = `filename ${Buffer.from(name).toString('base64')},network ${Buffer.from('public').toString('base64')}`
        const created = await call('tus create', [201], `${instance()}/v3/files`, {
          method: 'POST',
          headers: { 'tus-resumable': '1.0.0', 'upload-length': String(bytes.length), 'upload-metadata': metadata },
        })
        const location = created?.headers.get('location')
        if (!location) return
        const path = new URL(location).pathname
        const half = Math.floor(bytes.length / 2)
        let fileId: string | null = null
        let cid: string | null = null
        for (const [start, end] of [
          [0, half],
          [half, bytes.length],
        ] as const) {
          const res = await call('tus patch', [204], `${instance()}${path}`, {
            method: 'PATCH',
            headers: {
              'tus-resumable': '1.0.0',
              'content-type': 'application/offset+octet-stream',
              'upload-offset': String(start),
            },
            body: bytes.subarray(start, end),
          })
          if (!res) return
          fileId = res.headers.get('upload-file-id')
          cid = res.headers.get('upload-cid')
        }
        if (!fileId || !cid) return note(`tus: the completing PATCH named no file (${fileId}, ${cid})`)
        ledger.set(fileId, { id: fileId, cid, name, sha256: sha256(bytes), deleted: false, busy: false })
      },
    ],
    [
      15,
      async () => {
        const entry = pick()
        if (!entry) return
        try {
          const res = await call('get record', [200], `${instance()}/v3/files/public/${entry.id}`)
          if (!res) return
          const { data } = (await res.json()) as { data: { cid: string; name: string } }
          if (data.cid !== entry.cid || data.name !== entry.name) {
            note(`get record ${entry.id}: ${data.cid} "${data.name}", expected ${entry.cid} "${entry.name}"`)
          }
        } finally {
          entry.busy = false
        }
      },
    ],
    [
      20,
      async () => {
        const entry = pick()
        if (!entry) return
        try {
          const res = await call('gateway read', [200], `${instance()}/ipfs/${entry.cid}`)
          if (!res) return
          const got = sha256(new Uint8Array(await res.arrayBuffer()))
          if (got !== entry.sha256) note(`gateway read ${entry.cid}: different bytes`)
        } finally {
          entry.busy = false
        }
      },
    ],
    [
      5,
      async () => {
        const res = await call('gateway read 4 MiB', [200], `${instance()}/ipfs/${target.big.cid}`)
        if (!res) return
        if (sha256(new Uint8Array(await res.arrayBuffer())) !== target.big.sha256) note('4 MiB read: different bytes')
      },
    ],
    [
      10,
      async () => {
        const res = await call('list page', [200], `${instance()}/v3/files/public?limit=50`)
        await res?.arrayBuffer()
      },
    ],
    [
      8,
      async () => {
        const entry = pick()
        if (!entry) return
        try {
          const name = `${entry.name.replace(/\.renamed-\d+$/, '')}.renamed-${sequence++}`
          const res = await call('rename', [200], `${instance()}/v3/files/public/${entry.id}`, {
            method: 'PUT',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ name }),
          })
          if (!res) return
          await res.arrayBuffer()
          entry.name = name
        } finally {
          entry.busy = false
        }
      },
    ],
    [
      7,
      async () => {
        const entry = pick()
        if (!entry) return
        try {
          const res = await call('delete', [200], `${instance()}/v3/files/public/${entry.id}`, { method: 'DELETE' })
          if (!res) return
          await res.arrayBuffer()
          entry.deleted = true
        } finally {
          entry.busy = false
        }
      },
    ],
  ]
  const total = operations.reduce((sum, [weight]) => sum + weight, 0)
  const choose = () => {
    let roll = Math.random() * total
    for (const [weight, run] of operations) {
      roll -= weight
      if (roll < 0) return run
    }
    return operations[0]![1]
  }
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (Date.now() < until) await choose()()
    }),
  )
  return tally
}

/**
 * Reads every public file of the tenant back through the API (all pages) and compares it with the
 * ledger: a file the ledger holds and the server lost, one listed twice, one the ledger never heard
 * of, one deleted that came back, or a name or CID that differs.
 */
export async function checkLedger(
  url: string,
  token: string,
  ledger: Map<string, LedgerEntry>,
): Promise<{ listed: number; live: number; lost: string[]; duplicates: string[]; unknown: string[]; wrong: string[] }> {
  const seen = new Map<string, { cid: string; name: string; count: number }>()
  let pageToken = ''
  for (;;) {
    const query = new URLSearchParams({ limit: '1000', ...(pageToken && { pageToken }) })
    const res = await fetch(`${url}/v3/files/public?${query}`, { headers: { authorization: `Bearer ${token}` } })
    if (res.status !== 200) throw new Error(`listing files answered ${res.status}: ${await res.text()}`)
    const { data } = (await res.json()) as {
      data: { files: { id: string; cid: string; name: string }[]; next_page_token: string }
    }
    for (const file of data.files) {
      const before = seen.get(file.id)
      seen.set(file.id, { cid: file.cid, name: file.name, count: (before?.count ?? 0) + 1 })
    }
    if (!data.next_page_token || data.files.length === 0) break
    pageToken = data.next_page_token
  }
  const lost: string[] = []
  const wrong: string[] = []
  let live = 0
  for (const entry of ledger.values()) {
    const listed = seen.get(entry.id)
    if (entry.deleted) {
      if (listed) wrong.push(`${entry.id} was deleted and is listed`)
      continue
    }
    live++
    if (!listed) lost.push(entry.id)
    else if (listed.cid !== entry.cid || listed.name !== entry.name) {
      wrong.push(`${entry.id}: ${listed.cid} "${listed.name}", expected ${entry.cid} "${entry.name}"`)
    }
  }
  const duplicates = [...seen].filter(([, file]) => file.count > 1).map(([id]) => id)
  const unknown = [...seen.keys()].filter((id) => !ledger.has(id))
  return { listed: seen.size, live, lost, duplicates, unknown, wrong }
}
