import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { CONSOLE_TYPES_FILE, consoleTypes, currentConsoleTypes } from '../scripts/console-types.js'

describe("the console's wire types", () => {
  it('are those of the current OpenAPI document (else: npx tsx --conditions source packages/http/scripts/console-types.ts)', async () => {
    expect(await readFile(CONSOLE_TYPES_FILE, 'utf8')).toBe(currentConsoleTypes())
  })

  it('follow a change of a schema', () => {
    const file = { type: 'object', required: ['expires_at'], properties: { expires_at: { type: 'integer' } } }
    const changed = { ...file, properties: { expires_at: { type: 'string' } } }
    expect(consoleTypes({ File: file })).toContain('expires_at: number\n')
    expect(consoleTypes({ File: changed })).toContain('expires_at: string\n')
  })

  it('write optional properties, references, unions, arrays and records as TypeScript', () => {
    const types = consoleTypes({
      Network: { enum: ['public', 'private'] },
      List: {
        type: 'object',
        required: ['items'],
        properties: {
          items: { type: 'array', items: { $ref: '#/components/schemas/Network' } },
          tags: { type: 'object', patternProperties: { '^.*$': { type: 'string' } }, description: 'Labels' },
          when: { anyOf: [{ type: 'string' }, { type: 'null' }] },
        },
      },
    })
    expect(types).toContain("  Network: 'public' | 'private'\n")
    expect(types).toContain("    items: Schemas['Network'][]\n")
    expect(types).toContain('    /** Labels */\n    tags?: Record<string, string>\n')
    expect(types).toContain('    when?: string | null\n')
  })
})
