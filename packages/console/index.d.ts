/** Absolute path of the built console (`index.html` and the hashed `assets/`), for a server to serve. */
export declare const consoleAssetsDir: string
