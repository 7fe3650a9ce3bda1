import { PinfoldError } from '@pinfold/core'

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
  const lines: string[] = []
  const visit = (node: unknown, key?: string) => {
    if (node !== null && typeof node === 'object') {
      if (key !== undefined) lines.push(key)
      if (Array.isArray(node)) for (const item of node) visit(item)
      else for (const [childKey, child] of Object.entries(node)) visit(child, childKey)
    } else if (typeof node === 'string' || typeof node === 'number' || typeof node === 'boolean') {
      lines.push(key === undefined ? String(node) : `${key}: ${String(node)}`)
    }
  }
  visit(value)
  return lines.join('\n')
}
