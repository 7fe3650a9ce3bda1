import { createHash } from 'node:crypto'
import { chacha } from '@pinfold/testing/gateway'

/**
 * What the crash harness's clients know: only what the server acknowledged (a 2xx, with a CID for
 * an upload) before it was killed. A change whose answer was lost to the kill may or may not have
 * happened; the next check reads which, and accepts only the state before or after it.
 */

/** Bytes named by a seed: regenerated when checked instead of kept. */
export interface Recipe {
  seed: string
  size: number
}

export const bytesOf = (recipe: Recipe): Uint8Array => chacha(recipe.seed, recipe.size)
export const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

/** Stored content: one file (`path` '') or a folder's files (paths below its root). */
export interface Content {
  cid: string
  entries: { path: string; recipe: Recipe }[]
}

/** A value the client knows, or the values it may have after a change whose answer was lost. */
export type Belief<T> = { known: T } | { oneOf: T[] }

export const isKnown = <T>(belief: Belief<T>): belief is { known: T } => 'known' in belief

export interface KnownFile {
  id: string
  /** How it was made, for failure messages. */
  how: string
  content: Content
  exists: Belief<boolean>
  group: Belief<string | null>
  /** The CID its swap maps it to; null without one. */
  swap: Belief<string | null>
  /** A change to it is in flight: no second one starts. */
  busy: boolean
  /** Acknowledged, or changed, since its bytes were last read back. */
  unchecked: boolean
}

/** A tus upload the server created (201 with its URL). */
export interface KnownSession {
  location: string
  recipe: Recipe
  /** The highest `Upload-Offset` a PATCH answer acknowledged. */
  acked: number
  how: string
  busy: boolean
}

/** An accepted pin by CID: the file it makes takes the request's id. */
export interface KnownPin {
  requestId: string
  content: Content
}

export class Ledger {
  readonly files = new Map<string, KnownFile>()
  readonly sessions = new Set<KnownSession>()
  readonly pins = new Set<KnownPin>()
  readonly groups: string[] = []
  /** Answers no client input explains (5xx, a CID that is not the content's): failures on their own. */
  readonly anomalies: string[] = []

  addFile(id: string, content: Content, how: string): KnownFile {
    const file: KnownFile = {
      id,
      how,
      content,
      exists: { known: true },
      group: { known: null },
      swap: { known: null },
      busy: false,
      unchecked: true,
    }
    this.files.set(id, file)
    return file
  }

  /** Files that surely exist and are idle, for a change to pick from. */
  idleFiles(): KnownFile[] {
    return [...this.files.values()].filter((f) => !f.busy && isKnown(f.exists) && f.exists.known)
  }

  /**
   * Runs one change of `field` to `after`: acknowledged (2xx), the file has it; refused (4xx), it
   * has what it had; no answer (the server died), it has one of the two. A 5xx is an anomaly.
   */
  async change<F extends 'exists' | 'group' | 'swap'>(
    file: KnownFile,
    field: F,
    after: KnownFile[F] extends Belief<infer T> ? T : never,
    send: () => Promise<Response>,
    what: string,
  ): Promise<void> {
    const before = file[field] as Belief<unknown>
    if (!isKnown(before)) return
    file.busy = true
    file.unchecked = true
    try {
      const res = await send()
      await res.body?.cancel()
      if (res.ok) (file[field] as Belief<unknown>) = { known: after }
      else if (res.status >= 500) this.anomalies.push(`${what}: ${res.status}`)
    } catch {
      ;(file[field] as Belief<unknown>) = { oneOf: [before.known, after] }
    } finally {
      file.busy = false
    }
  }
}
