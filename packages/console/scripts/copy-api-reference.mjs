// Ships Scalar's API reference viewer with the console's built files: its standalone browser
// bundle (one self-contained script, no chunks, no CDN) is copied into api-reference/ for the
// server to serve beside `/docs`. Scalar is a devDependency, so installing the console installs no
// package: only this file. Not under dist/, which every Vite build empties.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'

// the package's exports name neither its package.json nor the browser bundle: found by path
const scalar = new URL('../node_modules/@scalar/api-reference/', import.meta.url)
const { version, license } = JSON.parse(readFileSync(new URL('package.json', scalar), 'utf8'))
const out = new URL('../api-reference/', import.meta.url)
mkdirSync(out, { recursive: true })
copyFileSync(new URL('dist/browser/standalone.js', scalar), new URL('standalone.js', out))
writeFileSync(
  new URL('NOTICE.txt', out),
  `standalone.js is @scalar/api-reference ${version} (${license} licence), https://www.npmjs.com/package/@scalar/api-reference\n`,
)
