import { readdirSync, readFileSync } from 'node:fs'

/** `pid` and every process below it (Linux `/proc`), the root first. */
export function processTree(pid: number): number[] {
  const children = new Map<number, number[]>()
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue // exited meanwhile
    }
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1])
    children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)])
  }
  const tree: number[] = []
  const visit = (p: number) => {
    tree.push(p)
    for (const child of children.get(p) ?? []) visit(child)
  }
  visit(pid)
  return tree
}

/** A process's command line, arguments joined by spaces; '' once it has exited. */
export function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim()
  } catch {
    return ''
  }
}

/** Whether a process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}
