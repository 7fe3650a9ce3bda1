import { parse as parseYaml } from 'yaml'
import { DEFAULT_HEADER, type ListIndex } from './list-index.js'
import { MAX_LINE_LENGTH, parseRuleLine } from './parse-rule.js'
import type { DenyRule, ListHeader, ListProblem } from './rule.js'

/** The header may take at most this much (the format's limit): past it, the list has none. */
const MAX_HEADER_BYTES = 1024 * 1024
const NEWLINE = 0x0a

/**
 * Reads a deny list into its index as its bytes arrive: the whole list at once, or the lines
 * appended to it since the last read (a watched file, an HTTP `Range` fetch). A line applies once
 * its newline has arrived; the bytes of an unfinished last line are kept until it does, so the next
 * read starts at `received`. A malformed line is reported and skipped; the rest applies.
 */
export class ListReader {
  /** Bytes read up to and including the last complete line. */
  consumed = 0
  #line = 0
  #pending: Uint8Array[] = []
  #pendingBytes = 0
  /** Lines before `---` while the header is still open; `undefined` once it is decided. */
  #headerLines: { line: number; text: string }[] | undefined = []
  #headerBytes = 0
  readonly #decoder = new TextDecoder()

  /** Every byte pushed so far: where the next read of the list starts. */
  get received(): number {
    return this.consumed + this.#pendingBytes
  }

  /**
   * `onRule`: told of each rule as it is added to the index (the server passes appended lines on
   * to the scan of held content, which looks for what they newly block).
   */
  constructor(
    readonly index: ListIndex,
    readonly onProblem: (problem: ListProblem) => void,
    readonly onRule?: (rule: DenyRule, line: number) => void,
  ) {}

  push(chunk: Uint8Array): void {
    let start = 0
    for (let at = chunk.indexOf(NEWLINE); at >= 0; at = chunk.indexOf(NEWLINE, start)) {
      const piece = chunk.subarray(start, at)
      const length = this.#pendingBytes + piece.byteLength + 1
      const text = this.#pendingBytes === 0 ? this.#decoder.decode(piece) : this.#joinPending(piece)
      this.consumed += length
      this.#lineDone(text, length)
      start = at + 1
    }
    if (start < chunk.byteLength) {
      // a copy: the caller may reuse its buffer
      this.#pending.push(chunk.slice(start))
      this.#pendingBytes += chunk.byteLength - start
    }
  }

  /** The list has ended: an unterminated last line applies too, and an unclosed header was none. */
  end(): void {
    if (this.#pendingBytes > 0) {
      const length = this.#pendingBytes
      const text = this.#joinPending(new Uint8Array())
      this.consumed += length
      this.#lineDone(text, length)
    }
    this.#noHeader()
  }

  #joinPending(last: Uint8Array): string {
    const whole = new Uint8Array(this.#pendingBytes + last.byteLength)
    let offset = 0
    for (const part of [...this.#pending, last]) {
      whole.set(part, offset)
      offset += part.byteLength
    }
    this.#pending = []
    this.#pendingBytes = 0
    return this.#decoder.decode(whole)
  }

  #lineDone(raw: string, bytes: number): void {
    const line = ++this.#line
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw
    if (bytes > MAX_LINE_LENGTH) {
      this.#problem(line, `a line is at most ${MAX_LINE_LENGTH} bytes`)
      return
    }
    if (this.#headerLines) {
      if (text.trim() === '---') {
        this.#closeHeader(line)
        return
      }
      const first = text.trimStart()[0]
      this.#headerBytes += bytes
      // a rule before any `---`, or a header past its limit: the list has no header
      if (first !== '/' && first !== '!' && this.#headerBytes <= MAX_HEADER_BYTES) {
        this.#headerLines.push({ line, text })
        return
      }
      this.#noHeader()
    }
    this.#rule(line, text)
  }

  #rule(line: number, text: string): void {
    let rule: DenyRule | undefined
    try {
      rule = parseRuleLine(text)
      if (rule) this.index.add(rule, line)
    } catch (error) {
      this.#problem(line, (error as Error).message)
      return
    }
    if (rule) this.onRule?.(rule, line)
  }

  #closeHeader(line: number): void {
    const yaml = (this.#headerLines ?? []).map((held) => held.text).join('\n')
    this.#headerLines = undefined
    try {
      this.index.header = headerOf(parseYaml(yaml, { maxAliasCount: 0 }))
    } catch (error) {
      this.#problem(line, `the header is not valid: ${(error as Error).message.split('\n')[0]}`)
    }
  }

  #noHeader(): void {
    const held = this.#headerLines
    this.#headerLines = undefined
    for (const { line, text } of held ?? []) this.#rule(line, text)
  }

  #problem(line: number, reason: string): void {
    this.onProblem({ list: this.index.name, line, reason })
  }
}

function headerOf(value: unknown): ListHeader {
  if (value === null || value === undefined) return DEFAULT_HEADER
  if (typeof value !== 'object' || Array.isArray(value)) throw new Error('a header is a YAML mapping')
  const fields = value as Record<string, unknown>
  const text = (key: string) => (typeof fields[key] === 'string' ? (fields[key] as string) : undefined)
  const hints: Record<string, string> = {}
  if (fields.hints !== undefined) {
    if (typeof fields.hints !== 'object' || fields.hints === null || Array.isArray(fields.hints)) {
      throw new Error('hints is a mapping of key: value')
    }
    for (const [key, hint] of Object.entries(fields.hints)) hints[key] = String(hint)
  }
  const version = fields.version === undefined ? 1 : Number(fields.version)
  if (version !== 1) throw new Error(`version ${String(fields.version)} is not supported (only 1)`)
  return {
    version,
    ...(text('name') !== undefined && { name: text('name') }),
    ...(text('description') !== undefined && { description: text('description') }),
    ...(text('author') !== undefined && { author: text('author') }),
    hints,
  }
}
