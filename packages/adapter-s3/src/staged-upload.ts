import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3'
import { abortable, PinfoldError, type StagedBlobWrites, throwIfAborted } from '@pinfold/interface'
import { completedPart, createMultipartUpload, MAX_PARTS, PartBuffers, PartReader } from './multipart-upload.js'
import { s3Error } from './s3-errors.js'

export interface StagedTarget {
  client: S3Client
  bucket: string
  objectKey: (key: string) => string
  partSize: number
  queueSize: number
  /** Tests lower it to reach the limit without uploading 50 GB. */
  maxParts?: number | undefined
}

/**
 * Staged writes as one S3 multipart upload: the handle is its UploadId, and each appended part is
 * one or more S3 parts of `partSize` to `2 × partSize` bytes (a short rest joins the part before it,
 * since S3 takes a part under 5 MiB only as the object's last), numbered by where they start in the
 * object (`offset / partSize + 1`), so a part appended again at the same offset replaces the same
 * S3 parts, and parts appended by different processes never need to know each other. A part's token
 * lists its S3 parts and ETags; `complete` sends them all. Memory: at most `queueSize` buffers of
 * `partSize` per append (one of them held back; one set kept for the next append), plus one join of
 * the last two buffers of an appended part.
 *
 * Two processes appending at the same offset at once (which the caller's compare-and-set resolves
 * to one winner) write the same part numbers; if the loser's bytes land last, `complete` is refused
 * (InvalidPart: the ETag it sends is the winner's) instead of storing the wrong bytes.
 */
export function s3StagedWrites(target: StagedTarget): StagedBlobWrites {
  const { client, bucket, objectKey, partSize } = target
  const maxParts = target.maxParts ?? MAX_PARTS
  // One tus PATCH is one append: buffers kept from one append for the next, so an upload of many
  // PATCHes reuses one set instead of leaving each PATCH's to the garbage collector (the RSS of a
  // 1–2 GiB tus upload on s3rver grew 94–129 MB with a set per PATCH, a single request 72–93).
  const spare: Buffer[] = []
  const bufferLimit = Math.max(2, target.queueSize)

  return {
    minPartBytes: partSize,

    async begin(key, options) {
      const signal = options?.signal
      throwIfAborted(signal)
      try {
        return await createMultipartUpload(client, bucket, objectKey(key), signal)
      } catch (err) {
        throw s3Error(err, `CreateMultipartUpload ${key}`, signal)
      }
    },

    async appendPart(key, handle, offset, source, options) {
      const signal = options?.signal
      throwIfAborted(signal)
      const stop = new AbortController()
      const onAbort = () => stop.abort(signal?.reason)
      signal?.addEventListener('abort', onAbort, { once: true })
      const reader = new PartReader(abortable(source, stop.signal))
      const sent: (CompletedPart & { size: number })[] = []
      const inFlight = new Set<Promise<void>>()
      let failure: { error: unknown } | undefined
      // one buffer may wait in `held` while the next fills: two at least, whatever `queueSize`
      const buffers = new PartBuffers(partSize, bufferLimit, spare)

      const send = (body: Buffer, start: number, release: () => void) => {
        const partNumber = Math.floor(start / partSize) + 1
        if (partNumber > maxParts) {
          throw new PinfoldError(
            'PAYLOAD_TOO_LARGE',
            `@pinfold/adapter-s3: ${key} needs more than ${maxParts} parts of ${partSize} bytes; raise partSize`,
          )
        }
        const sending = client
          .send(
            new UploadPartCommand({
              Bucket: bucket,
              Key: objectKey(key),
              UploadId: handle,
              PartNumber: partNumber,
              Body: body,
              ContentLength: body.length,
            }),
            { abortSignal: stop.signal },
          )
          .then((result) => {
            sent.push({ ...completedPart(result, partNumber), size: body.length })
          })
          .catch((error: unknown) => {
            failure ??= { error }
            stop.abort()
          })
          .finally(() => {
            inFlight.delete(sending)
            release()
          })
        inFlight.add(sending)
      }

      try {
        // A full buffer waits in `held` until the next one shows whether a short rest follows.
        let held: { buffer: Buffer; start: number } | undefined
        let position = offset
        for (;;) {
          const buffer = await buffers.take(inFlight)
          const length = await reader.fill(buffer)
          if (failure) break
          if (length === partSize) {
            if (held) send(held.buffer, held.start, freeing(held.buffer))
            held = { buffer, start: position }
            position += length
            continue
          }
          const rest = buffer.subarray(0, length)
          if (held && length > 0) {
            const last = held.buffer
            send(Buffer.concat([last, rest]), held.start, () => buffers.give(last, buffer))
          } else {
            if (held) send(held.buffer, held.start, freeing(held.buffer))
            if (length > 0) send(rest, position, freeing(buffer))
            else buffers.give(buffer)
          }
          held = undefined
          break
        }
        await Promise.all(inFlight)
        if (failure) throw failure.error
        throwIfAborted(signal)
        sent.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0))
        return { size: reader.size, part: JSON.stringify(sent) }
      } catch (err) {
        stop.abort()
        await Promise.all(inFlight)
        if (reader.failed) throw reader.error
        throw s3Error(err, `uploading a part of ${key}`, signal)
      } finally {
        signal?.removeEventListener('abort', onAbort)
        reader.close()
        // appends of several uploads at once each give their set back: keep one
        spare.length = Math.min(spare.length, bufferLimit)
      }

      function freeing(buffer: Buffer) {
        return () => buffers.give(buffer)
      }
    },

    async complete(key, handle, parts, options) {
      const signal = options?.signal
      throwIfAborted(signal)
      const all = parts.flatMap(partsOf).sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0))
      try {
        if (all.length === 0) {
          // S3 completes no upload without parts: an empty blob is an empty object
          await client.send(new PutObjectCommand({ Bucket: bucket, Key: objectKey(key), Body: new Uint8Array(0) }))
          await abortUpload(key, handle)
          return { size: 0 }
        }
        await client.send(
          new CompleteMultipartUploadCommand({
            Bucket: bucket,
            Key: objectKey(key),
            UploadId: handle,
            MultipartUpload: { Parts: all.map(({ size: _, ...part }) => part) },
          }),
        )
      } catch (err) {
        throw s3Error(err, `completing ${key}`, signal)
      }
      return { size: all.reduce((sum, part) => sum + part.size, 0) }
    },

    async abort(key, handle, options) {
      throwIfAborted(options?.signal)
      await abortUpload(key, handle)
    },
  }

  async function abortUpload(key: string, handle: string): Promise<void> {
    try {
      await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: objectKey(key), UploadId: handle }))
    } catch (err) {
      const error = s3Error(err, `AbortMultipartUpload ${key}`)
      // gone already (completed or aborted); s3rver implements no AbortMultipartUpload (405) and
      // keeps no parts a blob could be read from
      if (error.code !== 'NOT_FOUND' && (err as { name?: unknown }).name !== 'MethodNotAllowed') throw error
    }
  }
}

/** The S3 parts a token lists, each with its size (kept so `complete` can report the blob's). */
function partsOf(token: string): (CompletedPart & { size: number })[] {
  let parts: unknown
  try {
    parts = JSON.parse(token)
  } catch {
    parts = undefined
  }
  const valid = (p: CompletedPart & { size: number }) =>
    Number.isSafeInteger(p?.PartNumber) && typeof p?.ETag === 'string' && Number.isSafeInteger(p?.size)
  if (Array.isArray(parts) && parts.every(valid)) return parts
  throw new PinfoldError('INVALID_INPUT', '@pinfold/adapter-s3: not a part token of this store')
}
