import type { Readable } from 'node:stream'
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3'
import {
  type BlobInfo,
  type BlobStore,
  type ByteRange,
  type CallOptions,
  PinfoldError,
  type PresignOptions,
  type StagedBlobWrites,
  throwIfAborted,
} from '@pinfold/interface'
import { uploadObject } from './multipart-upload.js'
import { resolveS3Options, type S3BlobStoreOptions } from './options.js'
import { type RangeWindow, rangeWindow, windowOf } from './range-window.js'
import { s3Error } from './s3-errors.js'
import { s3StagedWrites } from './staged-upload.js'

export interface S3BlobStore extends BlobStore {
  readonly bucket: string
  readonly prefix: string
  list(options?: CallOptions & { prefix?: string | undefined }): AsyncIterable<BlobInfo>
  presignGet(key: string, options: PresignOptions & CallOptions): Promise<string>
  staged: StagedBlobWrites
}

/** S3 refuses presigned URLs that live longer than seven days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 60 * 60

/**
 * Blobs as objects under `prefix + key`. Uploads stream in bounded memory (see `uploadObject`): a
 * blob smaller than one part is a single PutObject, a larger one a multipart upload that is
 * completed only after the last byte, so an object appears whole or not at all.
 */
export function createS3BlobStore(options: S3BlobStoreOptions): S3BlobStore {
  const config = resolveS3Options(options)
  const { client, bucket, prefix } = config
  const objectKey = (key: string) => prefix + key

  async function head(key: string, callOptions?: CallOptions): Promise<BlobInfo | undefined> {
    const signal = callOptions?.signal
    throwIfAborted(signal)
    try {
      const res = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: objectKey(key) }), {
        abortSignal: signal,
      })
      return { key, size: res.ContentLength ?? 0 }
    } catch (err) {
      const error = s3Error(err, `HeadObject ${key}`, signal)
      if (error.code === 'NOT_FOUND') return undefined
      throw error
    }
  }

  return {
    bucket,
    prefix,
    head,
    staged: s3StagedWrites({ ...config, objectKey }),

    put: (key, source, callOptions) =>
      uploadObject({ ...config, objectKey: objectKey(key), key }, source, callOptions?.signal),

    async get(key, callOptions) {
      const signal = callOptions?.signal
      throwIfAborted(signal)
      const range = callOptions?.range
      if (range) validateRange(range)
      if (range?.length === 0) return emptyRangeOf(key, range, signal)
      try {
        const res = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: objectKey(key), Range: rangeHeader(range) }),
          { abortSignal: signal },
        )
        const raw = res.Body as Readable
        let window: RangeWindow | undefined
        try {
          window = range && rangeWindow(range, res, key)
        } catch (err) {
          raw.destroy()
          throw err
        }
        if (window?.take === 0) {
          raw.destroy()
          return nothing()
        }
        const body = bodyOf(raw, key, signal)
        return window ? windowOf(body, window) : body
      } catch (err) {
        const error = s3Error(err, `GetObject ${key}`, signal)
        if (error.code === 'NOT_FOUND') throw new PinfoldError('NOT_FOUND', `blob ${key} not found`, { cause: err })
        // S3 answers 416 for a range that starts exactly at the end, which the port allows (an
        // empty read); a HeadObject tells that apart from a range truly past the end.
        if (error.code === 'RANGE_NOT_SATISFIABLE' && range) return emptyRangeOf(key, range, signal, error)
        throw error
      }
    },

    async delete(key, callOptions) {
      const signal = callOptions?.signal
      throwIfAborted(signal)
      try {
        await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(key) }), { abortSignal: signal })
      } catch (err) {
        const error = s3Error(err, `DeleteObject ${key}`, signal)
        // Some S3-compatible servers answer 404 for an absent key; deleting is idempotent anyway.
        if (error.code !== 'NOT_FOUND') throw error
      }
    },

    async *list(listOptions) {
      const signal = listOptions?.signal
      let continuationToken: string | undefined
      do {
        throwIfAborted(signal)
        const page = await client
          .send(
            new ListObjectsV2Command({
              Bucket: bucket,
              Prefix: prefix + (listOptions?.prefix ?? ''),
              ContinuationToken: continuationToken,
            }),
            { abortSignal: signal },
          )
          .catch((err) => {
            throw s3Error(err, 'ListObjectsV2', signal)
          })
        for (const object of page.Contents ?? []) {
          if (object.Key?.startsWith(prefix)) yield { key: object.Key.slice(prefix.length), size: object.Size ?? 0 }
        }
        continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined
      } while (continuationToken)
    },

    async presignGet(key, presign) {
      throwIfAborted(presign.signal)
      const { expiresInSeconds } = presign
      if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_PRESIGN_SECONDS) {
        throw new PinfoldError(
          'INVALID_INPUT',
          `@pinfold/adapter-s3: expiresInSeconds must be an integer from 1 to ${MAX_PRESIGN_SECONDS}`,
        )
      }
      const command = new GetObjectCommand({
        Bucket: bucket,
        Key: objectKey(key),
        ResponseContentType: presign.contentType,
        ResponseContentDisposition: presign.contentDisposition,
      })
      // Signing is local (no request), so only credential resolution can fail here. The presigner
      // is loaded on first use: a store that never presigns does not carry it.
      try {
        const { getSignedUrl } = await import('@aws-sdk/s3-request-presigner')
        return await getSignedUrl(client, command, { expiresIn: expiresInSeconds })
      } catch (err) {
        throw s3Error(err, `presigning ${key}`, presign.signal)
      }
    },
  }

  /** Answers a range that reads nothing: empty when it starts within or at the end of the blob. */
  async function emptyRangeOf(
    key: string,
    range: ByteRange,
    signal: AbortSignal | undefined,
    cause?: unknown,
  ): Promise<AsyncIterable<Uint8Array>> {
    const info = await head(key, { signal })
    if (!info) throw new PinfoldError('NOT_FOUND', `blob ${key} not found`, { cause })
    if (range.offset > info.size) {
      throw new PinfoldError('RANGE_NOT_SATISFIABLE', `range starts past the end of ${key}`, { cause })
    }
    return nothing()
  }
}

/** `Range` header for a byte range; none for "the whole blob" (S3 answers 416 for `bytes=0-` on an empty object). */
function rangeHeader(range: ByteRange | undefined): string | undefined {
  if (!range || (range.offset === 0 && range.length === undefined)) return undefined
  const last = range.length === undefined ? '' : String(range.offset + range.length - 1)
  return `bytes=${range.offset}-${last}`
}

function validateRange(range: ByteRange): void {
  const validLength = range.length === undefined || (Number.isSafeInteger(range.length) && range.length >= 0)
  if (!Number.isSafeInteger(range.offset) || range.offset < 0 || !validLength) {
    throw new PinfoldError('INVALID_INPUT', '@pinfold/adapter-s3: a byte range needs integer offset and length >= 0')
  }
}

/** Streams a GetObject body, turning a dropped connection or an abort into coded errors. */
async function* bodyOf(body: Readable, key: string, signal: AbortSignal | undefined): AsyncGenerator<Uint8Array> {
  try {
    for await (const chunk of body) {
      throwIfAborted(signal)
      yield chunk as Uint8Array
    }
  } catch (err) {
    throw s3Error(err, `reading ${key}`, signal)
  } finally {
    body.destroy()
  }
}

async function* nothing(): AsyncGenerator<Uint8Array> {}
