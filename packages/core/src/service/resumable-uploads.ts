import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { CallOptions, SessionConstraints, SessionUploadOptions, UploadSessionRecord } from '@pinfold/interface'
import { conflict, invalid, notFound, PinfoldError, throwIfAborted } from '@pinfold/interface'
import { meter } from '../streams/meter.js'
import type { ServiceContext } from './context.js'
import type {
  FileOperations,
  UploadConstraints,
  UploadItem,
  UploadOperations,
  UploadOptions,
  UploadResult,
} from './file-service-api.js'
import { validateCidVersion, validateExpiry, validateKeyvalues, validateName, validateNetwork } from './validate.js'

/** How long a session lives after its creation or its last accepted PATCH. */
export const UPLOAD_SESSION_TTL_MS = 24 * 60 * 60 * 1000

/**
 * Resumable uploads (tus 1.0 core + creation + termination), transport-free. Each accepted PATCH
 * streams straight into its own part blob and advances the session's offset with a
 * compare-and-set, so of two PATCHes at one offset exactly one counts; a PATCH that fails midway
 * leaves no part and no change (the client resumes from the offset HEAD reports). The PATCH that
 * reaches the announced length claims the completion (exactly once, see `claimUploadCompletion`) and
 * streams the parts, in order, through the ordinary upload pipeline:
 * CIDs, dedupe, `is_duplicate` and signed-URL constraints are exactly those of a multipart upload.
 */
export function createResumableUploadOperations(
  ctx: ServiceContext,
  upload: FileOperations['upload'],
): Omit<UploadOperations, 'signed'> {
  const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex')

  async function mustGet(id: string, token: string, options?: CallOptions): Promise<UploadSessionRecord> {
    const session = await ctx.records.getUploadSession(id, options)
    // one answer for "absent", "wrong token" and "expired": a session URL is a capability
    const given = Buffer.from(tokenHash(token), 'hex')
    const valid =
      session !== undefined &&
      given.length === 32 &&
      timingSafeEqual(given, Buffer.from(session.tokenHash, 'hex')) &&
      session.expiresAt.getTime() > ctx.clock.now().getTime()
    if (!valid) throw notFound('upload')
    return session
  }

  /**
   * The official SDK retries a chunk at the same offset without asking HEAD; when the first try
   * was stored but its answer lost, the retry resends exactly the last accepted part. That resend
   * (same start, same length) is acknowledged without storing it again.
   */
  async function isRetryOfLastPart(
    session: UploadSessionRecord,
    offset: number,
    body: AsyncIterable<Uint8Array>,
  ): Promise<boolean> {
    const last = session.parts.at(-1)
    const start = last === undefined ? undefined : /\/(\d+)-[^/]*$/.exec(last)?.[1]
    if (start === undefined || Number(start) !== offset) return false
    const expected = session.offset - offset
    let received = 0
    for await (const chunk of body) {
      received += chunk.length
      if (received > expected) return false
    }
    return received === expected
  }

  async function deleteParts(parts: readonly string[]) {
    await Promise.all(parts.map((key) => ctx.blobs.delete(key).catch(() => {})))
  }

  async function* concatenate(parts: readonly string[], signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
    for (const key of parts) yield* await ctx.blobs.get(key, { signal })
  }

  async function finish(session: UploadSessionRecord, signal: AbortSignal | undefined): Promise<UploadResult> {
    const options = fromSessionOptions(session.options)
    const items: UploadItem[] = [
      { kind: 'options', options: { name: session.fileName, ...options } },
      // the name is an option; the path only needs to be a plain file name (a `/` would mean a folder)
      {
        kind: 'file',
        path: session.fileName.replaceAll('/', '_').replaceAll('\\', '_') || 'file',
        mimeType: session.mimeType ?? undefined,
        content: concatenate(session.parts, signal),
      },
    ]
    const result = await upload({ tenantId: session.tenantId, userId: session.userId }, toAsync(items), {
      signal,
      constraints: fromSessionConstraints(session.constraints),
    })
    const deleted = await ctx.records.deleteUploadSession(session.id).catch(() => undefined)
    if (deleted) await deleteParts(deleted.parts)
    return result
  }

  return {
    async create(actor, request, options) {
      const { length } = request
      if (!Number.isSafeInteger(length) || length < 0) throw invalid('Upload-Length must be a non-negative integer')
      const max = Math.min(ctx.maxUploadBytes, request.constraints?.maxBytes ?? Number.POSITIVE_INFINITY)
      if (length > max) throw new PinfoldError('PAYLOAD_TOO_LARGE', `upload exceeds the limit of ${max} bytes`)
      const now = ctx.clock.now()
      // Options the completion would refuse are refused now, before any byte is sent; a blank
      // file name is no name, as for multipart uploads.
      checkOptions(request.options, now)
      const fileName = [request.fileName, request.options.name].find((name) => name?.trim()) ?? 'file'
      const id = ctx.ids.recordId()
      const token = randomBytes(32).toString('base64url')
      const expiresAt = new Date(now.getTime() + UPLOAD_SESSION_TTL_MS)
      await ctx.records.createUploadSession(
        {
          id,
          tokenHash: tokenHash(token),
          tenantId: actor.tenantId,
          userId: actor.userId,
          length,
          offset: 0,
          parts: [],
          fileName,
          mimeType: request.mimeType || null,
          options: toSessionOptions(request.options),
          constraints: request.constraints ? toSessionConstraints(request.constraints) : null,
          createdAt: now,
          expiresAt,
        },
        options,
      )
      return { id, token, length, expiresAt }
    },

    async status(id, token, options) {
      const session = await mustGet(id, token, options)
      return { offset: session.offset, length: session.length, expiresAt: session.expiresAt }
    },

    /**
     * A PATCH at the final offset with an empty body retries the completion of an upload whose
     * earlier completion failed. Of the PATCHes at the final offset, only the one holding the
     * completion claim records the upload (`result`).
     */
    async append(id, token, offset, body, options = {}) {
      const { signal } = options
      const session = await mustGet(id, token, options)
      if (offset !== session.offset) {
        if (await isRetryOfLastPart(session, offset, body)) {
          return { offset: session.offset, length: session.length, expiresAt: session.expiresAt }
        }
        throw conflict(`Upload-Offset ${offset} does not match the upload's offset ${session.offset}`)
      }
      let current = session
      if (session.offset < session.length) {
        const key = `tus/${id}/${offset}-${ctx.ids.recordId()}`
        const metered = meter(body, { maxBytes: session.length - offset, headSize: 0, signal })
        let size: number
        try {
          size = (await ctx.blobs.put(key, metered.stream, { signal })).size
        } catch (error) {
          await ctx.blobs.delete(key).catch(() => {})
          throw error
        }
        if (size === 0) {
          await ctx.blobs.delete(key).catch(() => {})
          return { offset, length: session.length, expiresAt: session.expiresAt }
        }
        const advanced = await ctx.records
          .advanceUploadSession(
            id,
            offset,
            {
              offset: offset + size,
              part: key,
              expiresAt: new Date(ctx.clock.now().getTime() + UPLOAD_SESSION_TTL_MS),
            },
            options,
          )
          .catch(async (error: unknown) => {
            await ctx.blobs.delete(key).catch(() => {})
            throw error
          })
        if (!advanced) {
          await ctx.blobs.delete(key).catch(() => {})
          throw conflict(`another request already wrote at offset ${offset}`)
        }
        current = advanced
      } else {
        for await (const chunk of body) {
          if (chunk.length > 0) throw new PinfoldError('PAYLOAD_TOO_LARGE', 'the upload is already complete')
        }
      }
      const status = { offset: current.offset, length: current.length, expiresAt: current.expiresAt }
      if (current.offset < current.length) return status
      throwIfAborted(signal)
      // Every PATCH at the final offset gets here; only the claim's holder records the upload, the
      // others are acknowledged at the final offset (tus 204) without a result. The PATCH whose
      // advance reached the length holds the claim already; a bodiless one may only take over a
      // claim a failed completion gave back.
      const holdsClaim = current !== session || (await ctx.records.claimUploadCompletion(id, options)) === 'claimed'
      if (!holdsClaim) return status
      try {
        return { ...status, result: await finish(current, signal) }
      } catch (error) {
        // without the caller's signal: it may be the abort that failed the completion
        await ctx.records.releaseUploadCompletion(id).catch(() => {})
        throw error
      }
    },

    async terminate(id, token, options) {
      await mustGet(id, token, options)
      const deleted = await ctx.records.deleteUploadSession(id, options)
      if (deleted) await deleteParts(deleted.parts)
    },

    async sweepExpiredSessions(now = ctx.clock.now(), options) {
      let swept = 0
      for (;;) {
        const expired = await ctx.records.listExpiredUploadSessions(now, 100, options)
        let progressed = false
        for (const session of expired) {
          const deleted = await ctx.records.deleteUploadSession(session.id, options)
          if (!deleted) continue
          progressed = true
          swept++
          await deleteParts(deleted.parts)
        }
        if (expired.length < 100 || !progressed) return swept
      }
    },
  }
}

/** The checks `upload` makes on the options it is given, made on those a session will pass it. */
function checkOptions(options: Partial<UploadOptions>, now: Date): void {
  if (options.name !== undefined) validateName(options.name)
  if (options.keyvalues !== undefined) validateKeyvalues(options.keyvalues)
  if (options.network !== undefined) validateNetwork(options.network)
  if (options.cidVersion !== undefined) validateCidVersion(options.cidVersion)
  // time only moves on: an expiry past now is past at the completion too
  if (options.expiresAt !== undefined) validateExpiry(options.expiresAt, now)
}

async function* toAsync<T>(items: readonly T[]): AsyncGenerator<T> {
  yield* items
}

function toSessionOptions(options: Partial<UploadOptions>): SessionUploadOptions {
  const { expiresAt, ...rest } = options
  return { ...rest, ...(expiresAt !== undefined && { expiresAtMs: expiresAt === null ? null : expiresAt.getTime() }) }
}

function fromSessionOptions(options: SessionUploadOptions): Partial<UploadOptions> {
  const out: Partial<UploadOptions> = {}
  if (options.network !== undefined) out.network = options.network
  if (options.name !== undefined) out.name = options.name
  if (options.groupId !== undefined) out.groupId = options.groupId
  if (options.keyvalues !== undefined) out.keyvalues = options.keyvalues
  if (options.cidVersion !== undefined) out.cidVersion = options.cidVersion
  if (options.car !== undefined) out.car = options.car
  if (options.expiresAtMs !== undefined)
    out.expiresAt = options.expiresAtMs === null ? null : new Date(options.expiresAtMs)
  return out
}

function toSessionConstraints(constraints: UploadConstraints): SessionConstraints {
  return {
    maxBytes: constraints.maxBytes,
    allowMimeTypes: constraints.allowMimeTypes ? [...constraints.allowMimeTypes] : undefined,
    fixed: constraints.fixed ? toSessionOptions(constraints.fixed) : undefined,
  }
}

function fromSessionConstraints(constraints: SessionConstraints | null): UploadConstraints | undefined {
  if (!constraints) return undefined
  return {
    maxBytes: constraints.maxBytes ?? undefined,
    allowMimeTypes: constraints.allowMimeTypes ?? undefined,
    fixed: constraints.fixed ? fromSessionOptions(constraints.fixed) : undefined,
  }
}
