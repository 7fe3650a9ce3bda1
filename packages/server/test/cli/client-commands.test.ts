import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '../support/server.js'
import { runCli } from './run-cli.js'

describe('pinfold client commands against a running server', { timeout: 120_000 }, () => {
  let server: TestServer
  let work: string
  let env: Record<string, string>
  const pinfold = (...args: string[]) => runCli(args, env)

  beforeAll(async () => {
    server = await startTestServer({}, { storage: 'memory' })
    work = await mkdtemp(join(tmpdir(), 'pinfold-cli-'))
    // XDG_STATE_HOME/XDG_CONFIG_HOME: resumable-upload state and the default config file stay in the test's directory
    env = {
      PINFOLD_URL: server.url,
      PINFOLD_TOKEN: await server.token(),
      XDG_STATE_HOME: join(work, 'state'),
      XDG_CONFIG_HOME: join(work, 'config'),
    }
  })
  afterAll(async () => {
    await server?.close()
    await rm(work, { recursive: true, force: true })
  })

  const gatewayBytes = async (path: string) => {
    const res = await fetch(`${server.url}/ipfs/${path}`)
    expect(res.status).toBe(200)
    return Buffer.from(await res.arrayBuffer())
  }

  it('upload - a file: the CID on stdout, progress lines on stderr, the bytes served back', async () => {
    const bytes = randomBytes(700_000)
    await writeFile(join(work, 'photo.bin'), bytes)
    const run = await pinfold('upload', join(work, 'photo.bin'), '--network', 'public', '-k', 'album=summer')
    expect(run.code).toBe(0)
    const cid = run.stdout.split('\n')[0]!
    expect(cid).toMatch(/^bafy/)
    expect(run.stdout).toContain('photo.bin')
    expect(run.stderr).toMatch(/photo\.bin: 100% 683\.5 KiB of 683\.5 KiB, \d+(\.\d)? [KMG]?i?B\/s, done in \d+s\n$/)
    expect(await gatewayBytes(cid)).toEqual(bytes)
    const listed = await pinfold('ls', '--network', 'public', '-k', 'album=summer', '--json')
    expect(JSON.parse(listed.stdout).files).toMatchObject([{ cid, name: 'photo.bin', keyvalues: { album: 'summer' } }])
  })

  it('upload - a folder: every file at its path, byte-exact, as one record', async () => {
    const dir = join(work, 'site')
    await mkdir(join(dir, 'img'), { recursive: true })
    const big = randomBytes(400_000) // more than one 256 KiB block
    await writeFile(join(dir, 'index.html'), '<h1>hi</h1>')
    await writeFile(join(dir, 'img', 'big.bin'), big)
    const run = await pinfold('upload', dir, '--network', 'public', '--json')
    expect(run.code).toBe(0)
    const record = JSON.parse(run.stdout)
    expect(record).toMatchObject({ name: 'site', number_of_files: 2, network: 'public' })
    expect(await gatewayBytes(`${record.cid}/img/big.bin`)).toEqual(big)
    expect((await gatewayBytes(`${record.cid}/index.html`)).toString()).toBe('<h1>hi</h1>')
    expect(run.stderr).toBe('') // --json alone: no progress
  })

  it('upload - without --network the file is private, as the API; -n public makes it public', async () => {
    await writeFile(join(work, 'unchosen.txt'), randomBytes(64))
    const run = await pinfold('upload', join(work, 'unchosen.txt'), '--json')
    expect(run.code).toBe(0)
    const record = JSON.parse(run.stdout)
    expect(record).toMatchObject({ network: 'private', name: 'unchosen.txt' })
    const onPublic = await pinfold('ls', '--network', 'public', '--cid', record.cid, '--json')
    expect(JSON.parse(onPublic.stdout).files).toEqual([])
    const onPrivate = await pinfold('ls', '--cid', record.cid, '--json')
    expect(JSON.parse(onPrivate.stdout).files).toMatchObject([{ id: record.id }])
    const chosen = await pinfold('upload', join(work, 'unchosen.txt'), '-n', 'public', '--json')
    expect(JSON.parse(chosen.stdout)).toMatchObject({ network: 'public', cid: record.cid })
  })

  it('upload --resumable - tus with a progress bar; the same CID as a single request', async () => {
    const bytes = randomBytes(3 * 1024 * 1024 + 17)
    await writeFile(join(work, 'big.bin'), bytes)
    const single = await pinfold('upload', join(work, 'big.bin'), '--progress', 'none')
    const resumable = await pinfold('upload', join(work, 'big.bin'), '--resumable', '--progress', 'bar', '--json')
    expect(single.code).toBe(0)
    expect(resumable.code).toBe(0)
    const record = JSON.parse(resumable.stdout)
    expect(record.cid).toBe(single.stdout.split('\n')[0])
    expect(record).toMatchObject({ network: 'private', size: bytes.length, name: 'big.bin' })
    // the bar redraws one line: carriage returns, a filled bar at the end, one closing newline
    const lastDraw = resumable.stderr.split('\r').at(-1)!
    expect(lastDraw).toMatch(/^big\.bin \[#+\] 100% 3 MiB \/ 3 MiB .+ in \d+s/)
    expect(lastDraw.endsWith('\u001b[K\n')).toBe(true) // clears the rest of the line, then closes it
    expect(single.stderr).toBe('')
  })

  it('upload - a large file interrupted with Ctrl-C resumes where the server stopped when run again', async () => {
    const path = join(work, 'video.bin')
    const bytes = randomBytes(110 * 1024 * 1024) // over the SDK's 90 MiB: the resumable path by size
    await writeFile(path, bytes)
    let interrupted = false
    const first = await runCli(['upload', path, '--json', '--progress', 'lines'], env, (stderr, child) => {
      if (!interrupted && /: [5-9]\d% /.test(stderr)) {
        interrupted = true
        child.kill('SIGINT')
      }
    })
    expect(first.code).toBe(1)
    expect(first.stderr).toContain('interrupted: run the same command again to resume')
    const second = await runCli(['upload', path, '--json', '--progress', 'lines'], env)
    expect(second.code).toBe(0)
    // it says where it resumes and why, and its rate counts only what this run sent
    expect(second.stderr).toMatch(/^video\.bin: resuming at \d+ MiB of 110 MiB: the server kept that much/)
    // the first line of the second run already stands where the first run's PATCHes ended
    const firstPercent = Number(/: (\d+)% /.exec(second.stderr)?.[1])
    expect(firstPercent).toBeGreaterThanOrEqual(40)
    const record = JSON.parse(second.stdout)
    expect(record).toMatchObject({ size: bytes.length, name: 'video.bin', network: 'private' })
    const link = (await runCli(['link', record.cid], env)).stdout.trim()
    expect(Buffer.from(await (await fetch(link)).arrayBuffer()).equals(bytes)).toBe(true)
  })

  it('get - public content to a file; private content through a signed link; never overwrites', async () => {
    const bytes = randomBytes(300_000)
    await writeFile(join(work, 'secret.bin'), bytes)
    const uploaded = await pinfold('upload', join(work, 'secret.bin'), '--json')
    const { cid } = JSON.parse(uploaded.stdout)
    const out = join(work, 'fetched.bin')
    const got = await pinfold('get', cid, '-o', out, '--progress', 'lines')
    expect(got.code).toBe(0)
    expect(await readFile(out)).toEqual(bytes)
    expect(got.stderr).toMatch(/fetched\.bin: 100% /)
    const again = await pinfold('get', cid, '-o', out)
    expect(again.code).toBe(1)
    expect(again.stderr).toBe(`pinfold: ${out} exists: pass --force to replace it\n`)
    const toStdout = await runCli(['get', cid], env)
    expect(Buffer.from(toStdout.stdout, 'latin1').length).toBeGreaterThan(0)
    expect(toStdout.stderr).toBe('')
  })

  it('link - a private link works for --expires and the public one is the gateway URL', async () => {
    await writeFile(join(work, 'note.txt'), 'private note')
    const { cid } = JSON.parse((await pinfold('upload', join(work, 'note.txt'), '--json')).stdout)
    const run = await pinfold('link', cid, '--expires', '90s', '--json')
    expect(run.code).toBe(0)
    const link = JSON.parse(run.stdout)
    expect(link).toMatchObject({ network: 'private', expires_in: 90 })
    expect(await (await fetch(link.url)).text()).toBe('private note')
    const bad = await pinfold('link', cid, '--expires', 'forever')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/--expires must be a positive duration such as 90, 30s, 15m, 1h, 7d or 2w/)
    await writeFile(join(work, 'open.txt'), 'open note')
    const pub = JSON.parse((await pinfold('upload', join(work, 'open.txt'), '-n', 'public', '--json')).stdout)
    expect((await pinfold('link', pub.cid)).stdout.trim()).toBe(`${server.url}/ipfs/${pub.cid}`)
  })

  it('rm - by id and by CID; a CID nobody holds is an error', async () => {
    await writeFile(join(work, 'a.txt'), 'delete me by id')
    await writeFile(join(work, 'b.txt'), 'delete me by cid')
    const a = JSON.parse((await pinfold('upload', join(work, 'a.txt'), '--json')).stdout)
    const b = JSON.parse((await pinfold('upload', join(work, 'b.txt'), '--json')).stdout)
    const run = await pinfold('rm', a.id, b.cid)
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`deleted ${a.id} (private)\ndeleted ${b.id} (private)\n`)
    const left = JSON.parse((await pinfold('ls', '--json', '--name', 'a.txt')).stdout)
    expect(left.files).toEqual([])
    const none = await pinfold('rm', b.cid)
    expect(none.code).toBe(1)
    expect(none.stderr).toContain(`no private or public file is ${b.cid} or holds it`)
  })

  it('connection - url and token from a config file; a bad token is the server’s 401 message', async () => {
    const config = join(work, 'pinfold.json')
    await writeFile(config, JSON.stringify({ url: server.url, token: env.PINFOLD_TOKEN }))
    const withFile = await runCli(['ls', '--config', config], { ...env, PINFOLD_URL: '', PINFOLD_TOKEN: '' })
    expect(withFile.code).toBe(0)
    const denied = await pinfold('ls', '--token', 'not-a-token')
    expect(denied.code).toBe(1)
    expect(denied.stderr).toMatch(/^pinfold: GET \/v3\/files\/private: 401 /)
  })

  it('help - every command answers --help with its usage; unknown flags and commands are usage errors', async () => {
    const commands = ['serve', 'token', 'migrate', 'upload', 'ls', 'get', 'link', 'rm', 'pin', 'completion']
    const runs = await Promise.all(commands.map((command) => pinfold(command, '--help')))
    for (const [i, run] of runs.entries()) {
      expect(run.code, commands[i]).toBe(0)
      expect(run.stdout, commands[i]).toMatch(new RegExp(`^Usage: pinfold ${commands[i]}`))
    }
    const unknownFlag = await pinfold('upload', '--colour', 'x')
    expect(unknownFlag.code).toBe(2)
    expect(unknownFlag.stderr).toMatch(/Unknown option '--colour'[\s\S]*pinfold upload --help/)
    const unknownCommand = await pinfold('uplaod')
    expect(unknownCommand.code).toBe(2)
    expect(unknownCommand.stderr).toContain('unknown command "uplaod"')
  })
})
