import { describe, expect, it } from 'vitest'
import {
  type BlobStore,
  createFileService,
  createTokenVerifier,
  type FileServiceOptions,
  type RecordStore,
} from '../src/index.js'

const records = {} as RecordStore
const blobs = {} as BlobStore

/** `[option, options]`: one bad option each. */
const BAD_SERVICE_OPTIONS: [string, Partial<FileServiceOptions>][] = [
  ['records', { records: undefined }],
  ['blobs', { blobs: undefined }],
  ['maxUploadBytes', { maxUploadBytes: -1 }],
  ['maxUploadBytes', { maxUploadBytes: 1.5 }],
  ['signingSecret', { signingSecret: 'too-short' }],
  ['signingSecret', { signingSecret: new Uint8Array(31) }],
  ['paymentSettings', { paymentSettings: { networks: [] } as unknown as FileServiceOptions['paymentSettings'] }],
]

describe('createFileService options', () => {
  it.each(BAD_SERVICE_OPTIONS)('createFileService - a bad `%s` is INVALID_INPUT at construction', (option, bad) => {
    expect(() => createFileService({ records, blobs, ...bad } as FileServiceOptions)).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        message: expect.stringContaining(`@pinfold/core createFileService: option \`${option}\``),
      }),
    )
  })
})

describe('createTokenVerifier options', () => {
  it.each([
    ['secret', { secret: 'short' }],
    ['keys', {} as { keys: never }],
    ['maxLifetimeSeconds', { secret: 'a-token-secret-that-is-long-enough-0123', maxLifetimeSeconds: 0 }],
  ] as const)('createTokenVerifier - a bad `%s` is INVALID_INPUT at construction', (option, bad) => {
    expect(() => createTokenVerifier(bad)).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        message: expect.stringContaining(`@pinfold/core createTokenVerifier: option \`${option}\``),
      }),
    )
  })
})
