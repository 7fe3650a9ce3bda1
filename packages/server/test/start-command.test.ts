import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { exited, startChildServer } from './support/child-server.js'

const root = fileURLToPath(new URL('../../..', import.meta.url))
/** The README's start command, exactly. */
const START = ['npx', ['-y', 'pnpm@12.21.0', 'start']] as const
const SERVER_COMMAND = /^node (--\S+ )*scripts\/pinfold\.mjs serve$/

interface StartCommand {
  top: ChildProcess
  /** The node process running the server, found below the start command. */
  serverPid: number
  /** Everything the command's processes wrote to stdout, once every one of them has closed it. */
  output(): Promise<string>
}

/** Runs the README's start command and resolves once the server below it listens. */
function runStartCommand(dataDir: string, options: { ownProcessGroup?: boolean } = {}): Promise<StartCommand> {
  const top = spawn(START[0], START[1], {
    cwd: root,
    env: { ...process.env, PORT: '0', PINFOLD_DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
    // a process group of its own, as a shell's job control gives a command typed at a terminal
    detached: options.ownProcessGroup ?? false,
  })
  let stdout = ''
  let stderr = ''
  top.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString()
  })
  top.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString()
  })
  return new Promise((resolve, reject) => {
    createInterface({ input: top.stdout! }).on('line', (line) => {
      if (!line.includes('"pinfold listening"')) return
      // plain node running the start script: no TypeScript loader, no shell (pnpm's shell wrapper is its parent)
      const serverPid = descendants(top.pid!).find((pid) => SERVER_COMMAND.test(commandLine(pid)))
      const closed = new Promise<string>((done) => top.once('close', () => done(stdout)))
      if (serverPid) resolve({ top, serverPid, output: () => closed })
      else reject(new Error(`no server process below ${top.pid}`))
    })
    top.once('exit', (code) => reject(new Error(`the start command exited with ${code}: ${stderr}`)))
  })
}

function descendants(pid: number): number[] {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const stat = readStat(Number(entry))
    if (stat) children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(entry)])
  }
  const below = children.get(pid) ?? []
  return below.flatMap((child) => [child, ...descendants(child)])
}

function readStat(pid: number): { ppid: number; state: string } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8')
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
    return { state: fields[0]!, ppid: Number(fields[1]) }
  } catch {
    return undefined
  }
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
  } catch {
    return ''
  }
}

/** Resolves true once `pid` has exited (or is a zombie nobody reaped), false after `ms`. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (Date.now() < deadline) {
    const state = readStat(pid)?.state
    if (state === undefined || state === 'Z') return true
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return false
}

// Linux only: the processes below the command are found through /proc
describe.runIf(process.platform === 'linux')('the README start command', () => {
  let dataDir: string
  const cleanup: (() => Promise<unknown>)[] = []
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step().catch(() => {})
  })

  async function freshDataDir(): Promise<string> {
    dataDir = await mkdtemp(join(tmpdir(), 'pinfold-start-'))
    cleanup.push(() => rm(dataDir, { recursive: true, force: true }))
    return dataDir
  }

  function killLeftovers(command: StartCommand) {
    cleanup.push(async () => {
      for (const pid of [command.serverPid, command.top.pid!]) {
        try {
          process.kill(pid, 'SIGKILL')
        } catch {}
      }
    })
  }

  it('SIGTERM to npx stops the server cleanly, and the next start gets the data directory', async () => {
    const dir = await freshDataDir()
    const command = await runStartCommand(dir)
    killLeftovers(command)
    // the built CLI runs in the start script's own process: no TypeScript loader anywhere below
    expect(
      descendants(command.top.pid!)
        .map(commandLine)
        .filter((line) => line.includes('tsx')),
    ).toEqual([])
    expect(existsSync(join(dir, 'pinfold.lock'))).toBe(true)

    command.top.kill('SIGTERM')
    expect(await goneWithin(command.serverPid, 10_000)).toBe(true)
    // it shut down (finishing requests, closing the database) rather than being killed
    expect(await command.output()).toContain('"message":"stopped"')
    expect(existsSync(join(dir, 'pinfold.lock'))).toBe(false)

    const next = await startChildServer({ PINFOLD_DATA_DIR: dir })
    cleanup.push(async () => {
      next.child.kill('SIGTERM')
      await exited(next.child)
    })
    expect((await fetch(`${next.url}/readyz`)).status).toBe(200)
  }, 240_000)

  it('Ctrl-C (SIGINT to the command’s process group) stops the server cleanly', async () => {
    const dir = await freshDataDir()
    const command = await runStartCommand(dir, { ownProcessGroup: true })
    killLeftovers(command)
    process.kill(-command.top.pid!, 'SIGINT')
    expect(await goneWithin(command.serverPid, 10_000)).toBe(true)
    expect(await command.output()).toContain('"message":"stopped"')
    expect(existsSync(join(dir, 'pinfold.lock'))).toBe(false)
  }, 240_000)
})
