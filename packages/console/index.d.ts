/** Absolute path of the built console (`index.html` and the hashed `assets/`), for a server to serve. */
export declare const consoleAssetsDir: string
/** Absolute path of the API reference viewer (Scalar's `standalone.js`), for a server to serve beside `/docs`. */
export declare const apiReferenceAssetsDir: string
