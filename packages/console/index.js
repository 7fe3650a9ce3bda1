import { fileURLToPath } from 'node:url'

/** Absolute path of the built console (`index.html` and the hashed `assets/`), for a server to serve. */
export const consoleAssetsDir = fileURLToPath(new URL('./dist/', import.meta.url))

/** Absolute path of the API reference viewer (Scalar's `standalone.js`), for a server to serve beside `/docs`. */
export const apiReferenceAssetsDir = fileURLToPath(new URL('./api-reference/', import.meta.url))
