import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readConfig } from '../src/config.js'

// deploy/nginx.conf is exercised with a real nginx in nginx-proxy.test.ts
const unit = fileURLToPath(new URL('../../../deploy/pinfold.service', import.meta.url))
const ANALYZE = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find((path) => existsSync(path))

describe('deploy/pinfold.service', () => {
  it.skipIf(!ANALYZE)(
    'systemd-analyze verify - accepts the unit without a warning (skipped without systemd-analyze)',
    () => {
      const result = spawnSync(ANALYZE!, ['verify', unit], { encoding: 'utf8' })
      expect({ status: result.status, output: `${result.stdout}${result.stderr}` }).toEqual({ status: 0, output: '' })
    },
  )

  it("runs @pinfold/server's bin, with settings pinfold serve accepts", async () => {
    const text = await readFile(unit, 'utf8')
    const { bin } = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as {
      bin: { pinfold: string }
    }
    const execStart = /^ExecStart=(.*)$/m.exec(text)![1]!
    expect(execStart).toBe(`/usr/bin/node /opt/pinfold/node_modules/@pinfold/server/${bin.pinfold.slice(2)} serve`)
    const env = Object.fromEntries([...text.matchAll(/^Environment=([A-Z_]+)=(.*)$/gm)].map((m) => [m[1]!, m[2]!]))
    expect(readConfig(env)).toMatchObject({
      host: '127.0.0.1',
      port: 3000,
      dataDir: '/var/lib/pinfold',
      trustProxy: 1,
      publicUrl: 'https://files.example.com',
    })
    // the data directory is the state directory systemd makes owner-only for the service's user
    expect(text).toMatch(/^StateDirectory=pinfold$/m)
    expect(text).toMatch(/^StateDirectoryMode=0700$/m)
  })
})
