import type { PathSpec } from './rule.js'

/** A rule's path after its CID or name: `a/b` is exact, `a/b*` and `a/*` are prefixes (`a/b`, `a`). */
export function pathSpecOf(rest: string): PathSpec {
  const path = rest.replace(/^\/+/, '')
  if (!path.endsWith('*')) return { exact: trimSlashes(path) }
  return { prefix: path.slice(0, -1).replace(/\/+$/, '') }
}

/** A requested path the way rules compare it: no leading or trailing `/`. */
export function trimSlashes(path: string): string {
  let start = 0
  let end = path.length
  while (start < end && path.charCodeAt(start) === 47) start++
  while (end > start && path.charCodeAt(end - 1) === 47) end--
  return start === 0 && end === path.length ? path : path.slice(start, end)
}

export function pathMatches(spec: PathSpec, path: string): boolean {
  return 'exact' in spec ? spec.exact === path : path.startsWith(spec.prefix)
}
