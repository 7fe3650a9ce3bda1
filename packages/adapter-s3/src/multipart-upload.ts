import {
  AbortMultipartUploadCommand,
  ChecksumAlgorithm,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
  type UploadPartCommandOutput,
} from '@aws-sdk/client-s3'
import { abortable, abortError, PinfoldError, throwIfAborted } from '@pinfold/interface'
import { s3Error } from './s3-errors.js'

/** S3 refuses a multipart upload of more parts than this. */
export const MAX_PARTS = 10_000

export interface UploadTarget {
  client: S3Client
  bucket: string
  /** The object key (prefix included). */
  objectKey: string
  /** The key as the caller named it, for error messages. */
  key: string
  partSize: number
  queueSize: number
  /** Tests lower it to reach the limit without uploading 50 GB. */
  maxParts?: number | undefined
}

/**
 * Streams `source` into one object and resolves with its size. A source that ends within the first
 * part is a single PutObject; a longer one is a multipart upload completed only after the last byte,
 * so the object appears whole or not at all.
 *
 * Memory is bounded by `queueSize` part buffers of `partSize` bytes, allocated as needed and reused
 * for the whole upload: every chunk is copied once, into the part it belongs to, and nothing else
 * is allocated per chunk (lib-storage copied each chunk and then each part, and the garbage that
 * left behind cost more resident memory than the parts themselves). When all buffers are in flight
 * the source is not read, which pushes back on the client.
 *
 * On any failure — the source's, an S3 request's, an abort of `signal` — the remaining parts are
 * cancelled and *settled* before AbortMultipartUpload is sent, so no part outlives the failed put,
 * and only then does the put reject. The source's own errors pass through unchanged.
 */
export async function uploadObject(
  target: UploadTarget,
  source: AsyncIterable<Uint8Array>,
  signal: AbortSignal | undefined,
): Promise<{ size: number }> {
  throwIfAborted(signal)
  const { client, bucket, objectKey, key, partSize, queueSize } = target
  const maxParts = target.maxParts ?? MAX_PARTS
  // Stops the source and every request in flight, on the caller's abort or on our first failure.
  const stop = new AbortController()
  const onAbort = () => stop.abort(signal?.reason)
  signal?.addEventListener('abort', onAbort, { once: true })
  const reader = new PartReader(abortable(source, stop.signal))
  let failure: { error: unknown; fromSource: boolean } | undefined
  const fail = (error: unknown, fromSource: boolean) => {
    failure ??= { error, fromSource }
    stop.abort()
  }

  const buffers = new PartBuffers(partSize, queueSize)
  const inFlight = new Set<Promise<void>>()
  const parts: CompletedPart[] = []
  let uploadId: string | undefined
  const requestOptions = { abortSignal: stop.signal }

  function uploadPart(buffer: Buffer, length: number, partNumber: number, id: string): void {
    const sending = client
      .send(
        new UploadPartCommand({
          Bucket: bucket,
          Key: objectKey,
          UploadId: id,
          PartNumber: partNumber,
          Body: buffer.subarray(0, length),
          ContentLength: length,
        }),
        requestOptions,
      )
      .then((result) => {
        parts.push(completedPart(result, partNumber))
      })
      .catch((error: unknown) => fail(error, false))
      .finally(() => {
        inFlight.delete(sending)
        buffers.give(buffer)
      })
    inFlight.add(sending)
  }

  try {
    let buffer = await buffers.take(inFlight)
    let length = await reader.fill(buffer)
    if (!(await reader.hasMore())) {
      // Last chance to honour an abort: the request that commits the object is not cancelled, so a
      // put never rejects for an object that was stored all the same.
      throwIfAborted(signal)
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: objectKey,
          Body: buffer.subarray(0, length),
          ContentLength: length,
        }),
      )
      return { size: reader.size }
    }

    uploadId = await createMultipartUpload(client, bucket, objectKey, stop.signal)
    let partNumber = 1
    while (true) {
      uploadPart(buffer, length, partNumber, uploadId)
      if (!(await reader.hasMore())) break
      if (++partNumber > maxParts) {
        throw new PinfoldError(
          'PAYLOAD_TOO_LARGE',
          `@pinfold/adapter-s3: ${key} needs more than ${maxParts} parts of ${partSize} bytes; raise partSize`,
        )
      }
      buffer = await buffers.take(inFlight)
      if (failure) break
      length = await reader.fill(buffer)
    }
    await Promise.all(inFlight)
    if (failure) throw failure.error
    // Last chance to honour an abort, as for PutObject above.
    throwIfAborted(signal)
    parts.sort((a, b) => (a.PartNumber ?? 0) - (b.PartNumber ?? 0))
    await client.send(
      new CompleteMultipartUploadCommand({
        Bucket: bucket,
        Key: objectKey,
        UploadId: uploadId,
        MultipartUpload: { Parts: parts },
      }),
    )
    uploadId = undefined
    return { size: reader.size }
  } catch (err) {
    if (reader.failed) fail(reader.error, true)
    else fail(err, false)
    await Promise.all(inFlight)
    if (uploadId !== undefined) {
      // Not on the stopped signal: cleanup must run even (especially) after an abort. Its own
      // failure is not what went wrong, so the put reports the first failure instead.
      await client
        .send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: objectKey, UploadId: uploadId }))
        .catch(() => {})
    }
    if (signal?.aborted) throw abortError(signal)
    const first = failure ?? { error: err, fromSource: false }
    if (first.fromSource) throw first.error
    throw s3Error(first.error, `uploading ${key}`, signal)
  } finally {
    signal?.removeEventListener('abort', onAbort)
    reader.close()
  }
}

/** Starts a multipart upload of `objectKey` and resolves with its UploadId. */
export async function createMultipartUpload(
  client: S3Client,
  bucket: string,
  objectKey: string,
  abortSignal: AbortSignal | undefined,
): Promise<string> {
  const checksums = (await client.config.requestChecksumCalculation()) === 'WHEN_SUPPORTED'
  const created = await client.send(
    new CreateMultipartUploadCommand({
      Bucket: bucket,
      Key: objectKey,
      // As lib-storage does: the SDK then sends a CRC32 with each part, and Complete repeats them.
      ...(checksums && { ChecksumAlgorithm: ChecksumAlgorithm.CRC32 }),
    }),
    { abortSignal },
  )
  if (!created.UploadId) throw new Error('CreateMultipartUpload answered without an UploadId')
  return created.UploadId
}

/** What CompleteMultipartUpload needs of one UploadPart's answer: its ETag and the checksums it reported. */
export function completedPart(result: UploadPartCommandOutput, partNumber: number): CompletedPart {
  if (!result.ETag) throw new Error(`UploadPart ${partNumber} answered without an ETag`)
  return {
    PartNumber: partNumber,
    ETag: result.ETag,
    ...(result.ChecksumCRC32 && { ChecksumCRC32: result.ChecksumCRC32 }),
    ...(result.ChecksumCRC32C && { ChecksumCRC32C: result.ChecksumCRC32C }),
    ...(result.ChecksumSHA1 && { ChecksumSHA1: result.ChecksumSHA1 }),
    ...(result.ChecksumSHA256 && { ChecksumSHA256: result.ChecksumSHA256 }),
  }
}

/**
 * Part buffers of `partSize` bytes, allocated as needed and reused, at most `limit` out at once:
 * `take` waits for a part in flight to settle when all of them are out. `free` may be a list shared
 * with later uploads (see `s3StagedWrites`), which then reuse what this one gave back.
 */
export class PartBuffers {
  private out = 0

  constructor(
    private readonly partSize: number,
    private readonly limit: number,
    private readonly free: Buffer[] = [],
  ) {}

  async take(inFlight: ReadonlySet<Promise<void>>): Promise<Buffer> {
    while (this.out >= this.limit) await Promise.race(inFlight)
    this.out++
    // Not zero-filled: every byte sent is written first. Pages never written are never resident.
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.partSize)
  }

  give(...buffers: Buffer[]): void {
    this.out -= buffers.length
    this.free.push(...buffers)
  }
}

/**
 * Copies a chunk stream into part buffers. A chunk is read only once the previous one has been
 * copied in full, so a producer may reuse its buffer as soon as it is asked for the next chunk.
 */
export class PartReader {
  private readonly iterator: AsyncIterator<Uint8Array>
  /** The uncopied rest of the current chunk. */
  private pending: Uint8Array | undefined
  private done = false
  failed = false
  error: unknown
  /** Bytes read from the source so far. */
  size = 0

  constructor(source: AsyncIterable<Uint8Array>) {
    this.iterator = source[Symbol.asyncIterator]()
  }

  /** Fills `buffer` from the start until it is full or the source ends; resolves with the bytes written. */
  async fill(buffer: Uint8Array): Promise<number> {
    let filled = 0
    while (filled < buffer.length && (await this.hasMore())) {
      const chunk = this.pending as Uint8Array
      const n = Math.min(chunk.length, buffer.length - filled)
      buffer.set(n === chunk.length ? chunk : chunk.subarray(0, n), filled)
      filled += n
      this.pending = n === chunk.length ? undefined : chunk.subarray(n)
    }
    return filled
  }

  /** Whether any byte is left, reading the next non-empty chunk if none is pending. */
  async hasMore(): Promise<boolean> {
    while (this.pending === undefined && !this.done) {
      let next: IteratorResult<Uint8Array>
      try {
        next = await this.iterator.next()
      } catch (error) {
        this.failed = true
        this.error = error
        this.done = true
        throw error
      }
      if (next.done) this.done = true
      else if (next.value.length > 0) {
        this.pending = next.value
        this.size += next.value.length
      }
    }
    return this.pending !== undefined
  }

  /** Lets an unfinished source release what it holds. */
  close(): void {
    this.pending = undefined
    if (!this.done) {
      this.done = true
      this.iterator.return?.()?.catch(() => {})
    }
  }
}
