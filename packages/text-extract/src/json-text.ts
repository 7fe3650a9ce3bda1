import { PinfoldError } from '@pinfold/interface'

/**
 * A JSON document flattened to lines: each key, followed by its value when that is a string, number
 * or boolean (`title: Annual report`). Keys carry meaning too (`"invoice_total"`), so they are kept.
 */
export function jsonToText(json: string): string {
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (err) {
    throw new PinfoldError('INVALID_INPUT', `cannot extract text from JSON: ${(err as Error).message}`, { cause: err })
  }
  // An explicit stack rather than recursion: `[[[[…]]]]` nested 100,000 deep parses fine but would
  // overflow the call stack of a recursive walk.
  const lines: string[] = []
  const pending: { node: unknown; key?: string }[] = [{ node: value }]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { node, key } = next
    if (node !== null && typeof node === 'object') {
      if (key !== undefined) lines.push(key)
      const children = Array.isArray(node)
        ? node.map((item: unknown) => ({ node: item }))
        : Object.entries(node).map(([childKey, child]) => ({ node: child, key: childKey }))
      for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]!) // first child on top
    } else if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') {
      lines.push(key === undefined ? String(node) : `${key}: ${String(node)}`)
    }
  }
  return lines.join('\n')
}
