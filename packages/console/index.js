import { fileURLToPath } from 'node:url'

/** Absolute path of the built console (`index.html` and the hashed `assets/`), for a server to serve. */
export const consoleAssetsDir = fileURLToPath(new URL('./dist/', import.meta.url))
