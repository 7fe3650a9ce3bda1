import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from './support/server.js'

const readmePath = fileURLToPath(new URL('../../../README.md', import.meta.url))

/** The first fenced block of `language` after `heading` in the README: what a reader copies. */
async function readmeBlock(heading: string, language: string): Promise<string> {
  const readme = await readFile(readmePath, 'utf8')
  const section = readme.indexOf(`\n${heading}\n`)
  if (section < 0) throw new Error(`README has no section ${heading}`)
  const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(readme.slice(section))
  if (!match) throw new Error(`README's ${heading} has no ${language} block`)
  return match[1]!
}

const run = promisify(execFile)

describe('the README examples, run as written', { timeout: 120_000 }, () => {
  let server: TestServer
  let work: string
  beforeAll(async () => {
    server = await startTestServer({}, { storage: 'memory' })
    work = await mkdtemp(join(tmpdir(), 'pinfold-readme-'))
    // what the quick start leaves in the directory the reader works in
    await mkdir(join(work, '.pinfold'))
    await writeFile(join(work, '.pinfold', 'dev-token'), `${await server.token()}\n`)
  })
  afterAll(async () => {
    await server?.close()
    await rm(work, { recursive: true, force: true })
  })

  it('curl - a file, a folder, a download link and a signed upload URL', async () => {
    const script = (await readmeBlock('## Common tasks with curl', 'sh')).replace(
      'PINFOLD=http://127.0.0.1:3000',
      `PINFOLD=${server.url}`,
    )
    await writeFile(join(work, 'notes.txt'), 'remember the milk')
    await mkdir(join(work, 'site', 'css'), { recursive: true })
    await writeFile(join(work, 'site', 'index.html'), '<h1>site</h1>')
    await writeFile(join(work, 'site', 'css', 'main.css'), 'h1 { color: teal }')
    // a real PNG's signature and header: the signed URL allows image/* only
    await writeFile(join(work, 'photo.png'), Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'))
    // curl prints answers without a final newline; this wrapper ends each one, to tell them apart
    const endEachAnswer = 'curl() { command curl "$@"; local status=$?; echo; return $status; }\n'
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', endEachAnswer + script], { cwd: work })
    const lines = stdout.split('\n').filter(Boolean)
    expect(JSON.parse(lines[0]!).data).toMatchObject({ name: 'notes.txt', network: 'public' })
    const folder = JSON.parse(lines[1]!).data
    expect(folder).toMatchObject({ name: 'site', number_of_files: 2 })
    expect(await (await fetch(`${server.url}/ipfs/${folder.cid}/css/main.css`)).text()).toBe('h1 { color: teal }')
    expect(lines[2]).toBe('remember the milk') // the private file through its download link
    expect(JSON.parse(lines[3]!).data).toMatchObject({ name: 'photo.png', network: 'private' })
  })

  it('SDK - the snippet runs in a fresh project with the pinata package', async () => {
    const project = join(work, 'sdk-project')
    await mkdir(join(project, 'node_modules'), { recursive: true })
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'try-pinfold', version: '1.0.0' }))
    // the same pinata release as `npm install pinata` resolves to in the SDK suite
    const pinata = dirname(dirname(createRequire(import.meta.url).resolve('pinata'))) // …/pinata/dist/index.js
    await symlink(await realpath(pinata), join(project, 'node_modules', 'pinata'))
    await writeFile(join(project, 'upload.mjs'), await readmeBlock('## Using the official `pinata` SDK', 'js'))
    const { stdout } = await run(process.execPath, ['upload.mjs'], {
      cwd: project,
      env: { ...process.env, PINFOLD_URL: server.url, PINFOLD_TOKEN: await server.token() },
    })
    expect(stdout).toBe('bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e\nhello world\n')
    // without PINFOLD_TOKEN and far from a server's data directory: a sentence, not a stack trace
    const { PINFOLD_TOKEN: _, ...withoutToken } = process.env
    const failed = await run(process.execPath, ['upload.mjs'], { cwd: project, env: withoutToken }).catch(
      (error: { code: number; stderr: string }) => error,
    )
    expect(failed).toMatchObject({ code: 1 })
    expect((failed as { stderr: string }).stderr).toMatch(/^No token: set PINFOLD_TOKEN/)
    expect((failed as { stderr: string }).stderr).not.toMatch(/\n\s+at /)
  })
})
