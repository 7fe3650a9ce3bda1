import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import { CarBlockIterator } from '@ipld/car/iterator'
import { extract } from 'tar-stream'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CLIENT_COMMANDS } from '../../src/client/client-commands.js'
import type { OutputStream } from '../../src/client/command-kit.js'
import { completionScript } from '../../src/client/completion.js'
import { runClientCommand } from '../../src/client/run-command.js'
import { startTestServer, type TestServer } from '../support/server.js'

/**
 * The client commands run in this process (the same entry as `pinfold`, without a child process per
 * command) against a real server over HTTP: `get` of a folder, archives, verification against the
 * CID, no overwriting, the network looked up alike, pin by CID, `--json`, completion.
 */
describe('pinfold get, rm, ls, pin, completion (in process, against a real server)', () => {
  let server: TestServer
  let work: string
  let env: Record<string, string>

  const collect = () => {
    const stream = new PassThrough() as PassThrough & OutputStream
    const chunks: Buffer[] = []
    stream.on('data', (chunk: Buffer) => chunks.push(chunk))
    return { stream, bytes: () => Buffer.concat(chunks) }
  }
  const pinfold = async (command: string, ...args: string[]) => {
    const stdout = collect()
    const stderr = collect()
    const io = { stdout: stdout.stream, stderr: stderr.stream, env, signal: new AbortController().signal }
    const code = await runClientCommand(CLIENT_COMMANDS[command]!, args, io)
    return { code, stdout: stdout.bytes().toString(), raw: stdout.bytes(), stderr: stderr.bytes().toString() }
  }
  const uploadFolder = async (network: 'public' | 'private') => {
    const dir = join(work, `site-${network}`)
    await mkdir(join(dir, 'img'), { recursive: true })
    const big = randomBytes(300_000) // more than one 256 KiB block
    await writeFile(join(dir, 'index.html'), `<h1>${network}</h1>`)
    await writeFile(join(dir, 'img', 'big.bin'), big)
    const run = await pinfold('upload', dir, '-n', network, '--json')
    expect(run.code).toBe(0)
    return { record: JSON.parse(run.stdout), big }
  }

  beforeAll(async () => {
    server = await startTestServer({}, { storage: 'memory' })
    work = await mkdtemp(join(tmpdir(), 'pinfold-cli-kubo-'))
    env = { PINFOLD_URL: server.url, PINFOLD_TOKEN: await server.token(), XDG_STATE_HOME: join(work, 'state') }
  })
  afterAll(async () => {
    await server?.close()
    await rm(work, { recursive: true, force: true })
  })

  it('get - a folder (public and private) writes its tree, checked against the CID; the record size is reported', async () => {
    for (const network of ['public', 'private'] as const) {
      const { record, big } = await uploadFolder(network)
      const out = join(work, `tree-${network}`)
      const run = await pinfold('get', record.cid, '-o', out)
      expect(run.code, run.stderr).toBe(0)
      expect(await readFile(join(out, 'img', 'big.bin'))).toEqual(big)
      expect(await readFile(join(out, 'index.html'), 'utf8')).toBe(`<h1>${network}</h1>`)
      expect(run.stderr).toContain(`a folder of 2 file(s)`)
      expect(run.stderr).toContain(`as its record says`)
      expect(run.stderr).toContain(`verified against ${record.cid}`)
      expect((await readdir(work)).filter((name) => name.includes('pinfold'))).toEqual([]) // no spool, no partial left
    }
  })

  it('get - refuses to overwrite without --force (exit 1, one line); --json describes what was written', async () => {
    await writeFile(join(work, 'note.txt'), 'first')
    const { cid } = JSON.parse((await pinfold('upload', join(work, 'note.txt'), '--json')).stdout)
    const out = join(work, 'existing.txt')
    await writeFile(out, 'keep me')
    const refused = await pinfold('get', cid, '-o', out)
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe(`pinfold: ${out} exists: pass --force to replace it\n`)
    expect(await readFile(out, 'utf8')).toBe('keep me')
    const forced = await pinfold('get', cid, '-o', out, '--force', '--json')
    expect(forced.code).toBe(0)
    expect(JSON.parse(forced.stdout)).toMatchObject({ cid, network: 'private', path: out, type: 'file', bytes: 5 })
    expect(await readFile(out, 'utf8')).toBe('first')
    const toStdout = await pinfold('get', cid)
    expect(toStdout.stdout).toBe('first')
  })

  it('get --archive - a TAR of the tree and a CAR of verified blocks rooted at the CID', async () => {
    const { record, big } = await uploadFolder('public')
    const tar = await pinfold('get', record.cid, '-a', 'tar')
    expect(tar.code, tar.stderr).toBe(0)
    const members = new Map<string, Buffer>()
    const reader = extract()
    reader.on('entry', (header, stream, next) => {
      const parts: Buffer[] = []
      stream.on('data', (c) => parts.push(c as Buffer))
      stream.on('end', () => {
        members.set(header.name, Buffer.concat(parts))
        next()
      })
    })
    reader.end(tar.raw)
    await once(reader, 'finish')
    expect(members.get(`${record.cid}/img/big.bin`)).toEqual(big)
    const carPath = join(work, 'site.car')
    const car = await pinfold('get', record.cid, '-a', 'car', '-o', carPath)
    expect(car.code, car.stderr).toBe(0)
    const blocks = await CarBlockIterator.fromBytes(await readFile(carPath))
    expect((await blocks.getRoots()).map(String)).toEqual([record.cid])
    const bad = await pinfold('get', record.cid, '-a', 'zip')
    expect(bad.code).toBe(2)
  })

  it('get - a server sending a block that does not hash to its CID gets an error and nothing is written', async () => {
    await writeFile(join(work, 'true.bin'), randomBytes(50_000))
    const { cid } = JSON.parse((await pinfold('upload', join(work, 'true.bin'), '-n', 'public', '--json')).stdout)
    const car = Buffer.from(await (await fetch(`${server.url}/ipfs/${cid}?format=car`)).arrayBuffer())
    car[car.length - 10]! ^= 0xff // a byte of the last block's data
    const liar: Server = createServer((req, res) => {
      if (req.url?.startsWith('/v3/files/')) {
        res.setHeader('content-type', 'application/json')
        return void res.end(JSON.stringify({ data: { files: [], next_page_token: '' } }))
      }
      res.setHeader('content-type', 'application/vnd.ipld.car; version=1')
      res.end(car)
    })
    liar.listen(0, '127.0.0.1')
    await once(liar, 'listening')
    const { port } = liar.address() as { port: number }
    const out = join(work, 'lie.bin')
    const saved = env
    env = { ...env, PINFOLD_URL: `http://127.0.0.1:${port}` }
    try {
      const run = await pinfold('get', cid, '-o', out)
      expect(run.code).toBe(1)
      expect(run.stderr).toMatch(/^pinfold: block \S+ does not hash to its CID: the server sent wrong bytes/)
      await expect(readFile(out)).rejects.toThrow(/ENOENT/)
    } finally {
      env = saved
      liar.close()
    }
  })

  it('rm, ls and link - a public CID is found without --network, as get finds it', async () => {
    await writeFile(join(work, 'public.txt'), 'public, found without -n')
    const record = JSON.parse((await pinfold('upload', join(work, 'public.txt'), '-n', 'public', '--json')).stdout)
    const listed = await pinfold('ls', '--cid', record.cid, '--json')
    expect(JSON.parse(listed.stdout)).toMatchObject({ files: [{ id: record.id, network: 'public' }] })
    expect((await pinfold('link', record.cid)).stdout.trim()).toBe(`${server.url}/ipfs/${record.cid}`)
    const removed = await pinfold('rm', record.cid, '--json')
    expect(removed.code, removed.stderr).toBe(0)
    expect(JSON.parse(removed.stdout)).toEqual({ deleted: [{ id: record.id, network: 'public' }] })
    const again = await pinfold('rm', record.cid)
    expect(again.code).toBe(1)
    expect(again.stderr).toContain(`no private or public file is ${record.cid} or holds it`)
  })

  it('pin add|ls|rm - a request is queued, listed and withdrawn; --json on each', async () => {
    // a CID no source holds: the request stays in the queue (prechecking or retrieving) until withdrawn
    const cid = 'bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy'
    const added = await pinfold('pin', 'add', cid, '--name', 'queued', '--json')
    expect(added.code, added.stderr).toBe(0)
    const job = JSON.parse(added.stdout)
    expect(job).toMatchObject({ cid, name: 'queued' })
    const listed = await pinfold('pin', 'ls', '--cid', cid, '--json')
    expect(JSON.parse(listed.stdout).jobs.map((j: { id: string }) => j.id)).toContain(job.id)
    const text = await pinfold('pin', 'ls', '--cid', cid)
    expect(text.stdout).toContain(job.id)
    const removed = await pinfold('pin', 'rm', job.id, '--json')
    expect(removed.code, removed.stderr).toBe(0)
    expect(JSON.parse(removed.stdout)).toEqual({ deleted: [job.id] })
    const wrong = await pinfold('pin', 'frob')
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toContain('pin takes add, ls or rm')
  })

  it('completion and help - scripts for bash, zsh and fish name every command and its flags; help has examples', async () => {
    for (const shell of ['bash', 'zsh', 'fish']) {
      const script = completionScript(shell)
      for (const word of ['upload', 'get', 'pin', 'archive', 'force', 'completion'])
        expect(script, shell).toContain(word)
    }
    expect(() => completionScript('tcsh')).toThrow(/bash, zsh or fish/)
    for (const command of Object.keys(CLIENT_COMMANDS)) {
      const help = await pinfold(command, '--help')
      expect(help.stdout, command).toMatch(/\nExamples:\n {2}pinfold /)
    }
  })
})
