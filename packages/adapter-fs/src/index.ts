/**
 * `@pinfold/adapter-fs`: a `BlobStore` on the local filesystem, the embedded default. Writes are
 * atomic (temp file, fsync, rename), reads stream only the bytes asked for.
 *
 * ```ts
 * import { createFsBlobStore } from '@pinfold/adapter-fs'
 *
 * async function* text(value: string) {
 *   yield new TextEncoder().encode(value)
 * }
 *
 * const blobs = createFsBlobStore({ directory: './.pinfold/blobs' })
 * await blobs.put('blobs/hello', text('hello'))
 * for await (const chunk of await blobs.get('blobs/hello', { range: { offset: 1, length: 3 } })) {
 *   console.log(new TextDecoder().decode(chunk)) // "ell"
 * }
 * ```
 */
export { createFsBlobStore, type FsBlobStore } from './fs-blob-store.js'
export type { FsBlobStoreOptions } from './options.js'
