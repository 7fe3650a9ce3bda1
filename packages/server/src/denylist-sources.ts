import { createHash, type Hash } from 'node:crypto'
import { open, stat } from 'node:fs/promises'
import { basename } from 'node:path'
import { Denylists, type DenyRule, ListIndex, type ListProblem, ListReader } from '@pinfold/core'

/** Where a deny list comes from (`PINFOLD_DENYLISTS`): a file on disk, or an HTTP(S) subscription. */
export interface DenylistSource {
  kind: 'file' | 'http'
  /** The list's name in logs, metrics and refusals: the file's or URL's last segment. */
  name: string
  location: string
}

/** `PINFOLD_DENYLISTS`: comma-separated paths and `http(s)://` URLs, applied in the order given. */
export function parseDenylistSources(value: string | undefined): DenylistSource[] {
  const sources = (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean)
    .map((location): DenylistSource => {
      const http = /^https?:\/\//i.test(location)
      const name = (http ? new URL(location).pathname.split('/').pop() : basename(location)) || location
      return { kind: http ? 'http' : 'file', name, location }
    })
  const names = sources.map((source) => source.name)
  const twice = names.find((name, at) => names.indexOf(name) !== at)
  if (twice) throw new Error(`PINFOLD_DENYLISTS: two lists are named ${twice} (a list is named by its file name)`)
  return sources
}

export interface DenylistSourceOptions {
  /** How often files are checked for appended lines (default 1 s). */
  fileCheckMs?: number | undefined
  /** How often HTTP subscriptions are refreshed (default 60 s, as rainbow does). */
  refreshMs?: number | undefined
  /** A line skipped as malformed. */
  onProblem: (problem: ListProblem) => void
  /** A list that could not be read (its last good version stays in force), or `undefined` once it reads again. */
  onFailure: (list: string, error: string | undefined) => void
  fetch?: typeof fetch | undefined
  /**
   * A list's rule set changed after start-up: `added`, the rules of lines appended to it (a file's
   * new lines, a subscription's `Range` answer); `replaced`, the list was read again whole (its new
   * rules are not known one by one). The scan of held content looks for what they newly block.
   */
  onChange?: ((change: { list: string; added: DenyRule[] } | { list: string; replaced: true }) => void) | undefined
}

export interface RunningDenylists {
  readonly lists: Denylists
  /** The sha-256 (hex) of a list's bytes as read so far, its name's list's content: `undefined` before a read. */
  digest(name: string): string | undefined
  /** Reads every source once more now (tests, and a reload). */
  refresh(): Promise<void>
  stop(): void
}

/**
 * Keeps `lists` current from the sources: every list is read once before this resolves, then
 * files are re-read from where the last read stopped (appended lines apply without a restart; a
 * file that shrank is read again whole), and subscriptions are fetched with `If-None-Match` and a
 * `Range` from the last byte applied, so an append-only list costs only its new lines. A read that
 * fails keeps the list's last good version in force and is reported until one succeeds.
 */
export async function startDenylistSources(
  sources: readonly DenylistSource[],
  options: DenylistSourceOptions,
): Promise<RunningDenylists> {
  const lists = new Denylists()
  const fetcher = options.fetch ?? fetch
  const readers = sources.map((source) => {
    lists.list(source.name) // registered now, in order, so the configured order is the rules' order
    const state = {
      source,
      reader: undefined as ListReader | undefined,
      etag: undefined as string | undefined,
      /** The bytes the reader took, hashed as they came: the list's content, for the held-content scan. */
      hash: undefined as Hash | undefined,
    }
    return state
  })
  let started = false
  /** Rules of lines appended since the last `onChange`, by list (whole reads report nothing one by one). */
  const appended = new Map<string, DenyRule[]>()

  type State = (typeof readers)[number]

  /**
   * A reader for a whole read of the list, with a hash of its bytes: the rules it adds are
   * collected for `onChange` only once it is the list's reader (lines appended later).
   */
  function fresh(state: State): { reader: ListReader; hash: Hash } {
    const reader: ListReader = new ListReader(new ListIndex(state.source.name), options.onProblem, (rule) => {
      if (state.reader !== reader) return
      const rules = appended.get(state.source.name) ?? []
      appended.set(state.source.name, rules)
      rules.push(rule)
    })
    return { reader, hash: createHash('sha256') }
  }

  /** Pushes a chunk of the list into its reader and its hash. */
  function take(reader: ListReader, hash: Hash, chunk: Uint8Array): void {
    reader.push(chunk)
    hash.update(chunk)
  }

  /** Reports what the last read changed (after start-up): the rules of appended lines, or a whole read. */
  function changed(state: State, whole: boolean): void {
    const name = state.source.name
    const added = appended.get(name)
    appended.delete(name)
    if (!started || !options.onChange) return
    if (whole) options.onChange({ list: name, replaced: true })
    else if (added && added.length > 0) options.onChange({ list: name, added })
  }

  function failed(name: string, error: unknown): void {
    const message = error instanceof Error ? error.message : String(error)
    lists.setFailure(name, message)
    options.onFailure(name, message)
  }
  function succeeded(name: string): void {
    if (lists.failure(name) === undefined) return
    lists.setFailure(name, undefined)
    options.onFailure(name, undefined)
  }

  async function readFile(state: State): Promise<void> {
    const { source } = state
    const { size } = await stat(source.location)
    // a file that shrank was replaced or rewritten: read it again whole
    const whole = !state.reader || !state.hash || size < state.reader.received
    const { reader, hash } = whole ? fresh(state) : { reader: state.reader!, hash: state.hash! }
    if (size > reader.received) {
      const file = await open(source.location, 'r')
      try {
        for await (const chunk of file.createReadStream({ start: reader.received, end: size - 1, autoClose: false })) {
          take(reader, hash, chunk as Buffer)
        }
      } finally {
        await file.close()
      }
    }
    if (whole) {
      state.reader = reader
      state.hash = hash
      lists.replace(reader.index)
    }
    changed(state, whole)
  }

  async function readHttp(state: State): Promise<void> {
    const { source } = state
    const headers: Record<string, string> = {}
    const appending = state.reader !== undefined
    if (appending && state.etag) headers['if-none-match'] = state.etag
    if (appending) headers.range = `bytes=${state.reader!.received}-`
    const response = await fetcher(source.location, { headers, signal: AbortSignal.timeout(60_000) })
    if (response.status === 304) return
    if (response.status === 416) {
      // nothing past what we have: unchanged, or shrunk (then it is fetched whole next time)
      await response.body?.cancel()
      if (response.headers.get('etag') !== state.etag) state.reader = undefined
      return
    }
    if (response.status !== 200 && response.status !== 206) {
      await response.body?.cancel()
      throw new Error(`GET ${source.location} answered ${response.status}`)
    }
    const partial = response.status === 206 && appending
    const start = Number(/^bytes (\d+)-/.exec(response.headers.get('content-range') ?? '')?.[1])
    if (partial && start !== state.reader!.received) {
      await response.body?.cancel()
      const asked = state.reader!.received
      state.reader = undefined // a range we did not ask for: fetch it whole next time
      throw new Error(`GET ${source.location} answered a range from ${start}, not ${asked}`)
    }
    const { reader, hash } = partial ? { reader: state.reader!, hash: state.hash! } : fresh(state)
    for await (const chunk of response.body ?? []) take(reader, hash, chunk)
    state.etag = response.headers.get('etag') ?? undefined
    if (reader !== state.reader) {
      state.reader = reader
      state.hash = hash
      lists.replace(reader.index)
    }
    changed(state, !partial)
  }

  async function readOne(state: State): Promise<void> {
    try {
      await (state.source.kind === 'file' ? readFile(state) : readHttp(state))
      succeeded(state.source.name)
    } catch (error) {
      failed(state.source.name, error)
    }
  }

  const refreshAll = () => Promise.all(readers.map(readOne)).then(() => {})
  await refreshAll()
  started = true

  const timers: NodeJS.Timeout[] = []
  const every = (ms: number, kind: DenylistSource['kind']) => {
    const mine = readers.filter((state) => state.source.kind === kind)
    if (mine.length === 0) return
    let running = false
    const timer = setInterval(() => {
      if (running) return // a slow read is not overlapped by the next
      running = true
      void Promise.all(mine.map(readOne)).finally(() => {
        running = false
      })
    }, ms)
    timer.unref()
    timers.push(timer)
  }
  every(options.fileCheckMs ?? 1_000, 'file')
  every(options.refreshMs ?? 60_000, 'http')

  return {
    lists,
    digest(name) {
      const hash = readers.find((state) => state.source.name === name)?.hash
      return hash?.copy().digest('hex')
    },
    refresh: refreshAll,
    stop() {
      for (const timer of timers) clearInterval(timer)
    },
  }
}
