import { readFileSync } from 'node:fs'
import { builtinModules, createRequire } from 'node:module'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * `@pinfold/http` is the fetch handler for any fetch-based runtime (Node, Deno, Bun, workers): what
 * `src/index.ts` reaches may use web standards only. This walks its import closure (static, dynamic
 * and type imports, through every relative file) and fails on a Node built-in, on a third-party
 * package not known to be runtime-neutral, and on Node's globals.
 */

const root = fileURLToPath(new URL('..', import.meta.url))
const packageJson = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}

/**
 * Third-party packages the handler may import, each checked below to reach no Node built-in from
 * what the handler imports of it. Adding one here is a claim that it runs on any fetch runtime.
 */
const RUNTIME_NEUTRAL = new Set([
  // multipart/form-data parsing: a push parser over Uint8Arrays (its `multipasta/node` entry is not used)
  'multipasta',
  // tracing's API only (the SDK is the host's): spans through globalThis, no Node built-in
  '@opentelemetry/api',
  // the gateway's bounded caches (sniffed content types): plain JavaScript over Map and performance.now
  'lru-cache',
  // request and response schemas (JSON Schema): no dependencies; compiles checks with `new Function`
  // and falls back to interpreting them where a runtime forbids that
  'typebox',
])

/** Workspace packages: their own neutrality is their business (core still uses node:crypto, Buffer). */
const WORKSPACE = new Set(['@pinfold/core', '@pinfold/x402'])

/** Node's globals, which other runtimes lack or only emulate. */
const NODE_GLOBALS = new Set([
  'Buffer',
  'process',
  'global',
  'setImmediate',
  'clearImmediate',
  'require',
  '__dirname',
  '__filename',
  'NodeJS',
])

const builtins = new Set(builtinModules.flatMap((name) => [name, name.split('/')[0]!]))

const packageOf = (specifier: string) =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!

interface Import {
  from: string
  specifier: string
}

/**
 * Every module specifier in a source file: `import`, `export … from`, `import type`, `import()`,
 * `import('…').T` in types, and `require()` (third-party CommonJS builds).
 */
function specifiersOf(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: string[] = []
  const literal = (node: ts.Node | undefined, what: string) => {
    // a computed specifier cannot be followed: refuse it rather than miss what it loads
    if (!node || !ts.isStringLiteralLike(node)) throw new Error(`${file}: ${what} of a computed specifier`)
    found.push(node.text)
  }
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      literal(node.moduleSpecifier, 'import')
    } else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      literal(node.moduleReference.expression, 'import =')
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      literal(node.argument.literal, 'import type')
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression
      if (callee.kind === ts.SyntaxKind.ImportKeyword) literal(node.arguments[0], 'import()')
      else if (ts.isIdentifier(callee) && callee.text === 'require' && /\.c?js$/.test(file)) {
        literal(node.arguments[0], 'require()')
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function resolveRelative(from: string, specifier: string, extensions: string[]): string {
  const base = resolve(dirname(from), specifier)
  const candidates = [
    base,
    ...extensions.map((ext) => base.replace(/\.js$/, ext)),
    ...extensions.map((ext) => `${base}${ext}`),
    ...extensions.map((ext) => join(base, `index${ext}`)),
  ]
  for (const candidate of candidates) {
    try {
      if (readFileSync(candidate) && /\.[cm]?[jt]s$/.test(candidate)) return candidate
    } catch {}
  }
  throw new Error(`${from}: cannot resolve ${specifier}`)
}

/** Walks relative imports from `entry`; returns the files reached and the bare imports found. */
function closure(entry: string, extensions: string[]): { files: string[]; bare: Import[] } {
  const seen = new Set<string>()
  const bare: Import[] = []
  const queue = [entry]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file)) continue
    seen.add(file)
    for (const specifier of specifiersOf(file)) {
      if (specifier.startsWith('.')) queue.push(resolveRelative(file, specifier, extensions))
      else bare.push({ from: file, specifier })
    }
  }
  return { files: [...seen], bare }
}

const isNodeBuiltin = (specifier: string) => specifier.startsWith('node:') || builtins.has(packageOf(specifier))

const handler = closure(join(root, 'src/index.ts'), ['.ts'])
const show = ({ from, specifier }: Import) => `${relative(root, from)}: ${specifier}`

describe('@pinfold/http stays runtime-neutral', () => {
  it('the closure of src/index.ts is the whole of src/ that ships', () => {
    expect(handler.files.length).toBeGreaterThan(30)
    expect(handler.files.every((file) => file.startsWith(join(root, 'src')))).toBe(true)
  })

  it('imports no Node built-in (node:… or a bare built-in name)', () => {
    expect(handler.bare.filter((i) => isNodeBuiltin(i.specifier)).map(show)).toEqual([])
  })

  it('imports no third-party package but the runtime-neutral ones, each a declared dependency', () => {
    const declared = new Set(Object.keys(packageJson.dependencies ?? {}))
    const stray = handler.bare.filter((i) => {
      const name = packageOf(i.specifier)
      return !isNodeBuiltin(i.specifier) && !(declared.has(name) && (RUNTIME_NEUTRAL.has(name) || WORKSPACE.has(name)))
    })
    expect(stray.map(show)).toEqual([])
  })

  it('package.json depends on nothing else (no driver, no Node-only library)', () => {
    const names = [...Object.keys(packageJson.dependencies ?? {}), ...Object.keys(packageJson.peerDependencies ?? {})]
    expect(names.filter((name) => !RUNTIME_NEUTRAL.has(name) && !WORKSPACE.has(name))).toEqual([])
  })

  it('what it imports of each third-party package reaches no Node built-in', () => {
    const require = createRequire(join(root, 'package.json'))
    const thirdParty = [...new Set(handler.bare.map((i) => i.specifier))].filter((s) =>
      RUNTIME_NEUTRAL.has(packageOf(s)),
    )
    expect(thirdParty.length).toBeGreaterThan(0)
    for (const specifier of thirdParty) {
      const reached = closure(require.resolve(specifier), ['.js', '.cjs', '.mjs'])
      const offending = reached.bare.filter(
        (i) => isNodeBuiltin(i.specifier) || !RUNTIME_NEUTRAL.has(packageOf(i.specifier)),
      )
      expect(
        offending.map(({ from, specifier: s }) => `${from}: ${s}`),
        specifier,
      ).toEqual([])
    }
  })

  it("uses none of Node's globals (Buffer, process, setImmediate, NodeJS.…)", () => {
    const uses: string[] = []
    for (const file of handler.files) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
      const visit = (node: ts.Node) => {
        if (ts.isIdentifier(node) && NODE_GLOBALS.has(node.text) && !isMemberName(node)) {
          const { line } = source.getLineAndCharacterOfPosition(node.getStart())
          uses.push(`${relative(root, file)}:${line + 1}: ${node.text}`)
        }
        ts.forEachChild(node, visit)
      }
      visit(source)
    }
    expect(uses).toEqual([])
  })
})

/** `x.process`, `{ process: … }`, `process() {}`: a name of a member, not the global. */
function isMemberName(node: ts.Identifier): boolean {
  const parent = node.parent
  return (
    (ts.isPropertyAccessExpression(parent) && parent.name === node) ||
    (ts.isQualifiedName(parent) && parent.right === node) ||
    ((ts.isPropertyAssignment(parent) ||
      ts.isMethodDeclaration(parent) ||
      ts.isPropertySignature(parent) ||
      ts.isPropertyDeclaration(parent) ||
      ts.isMethodSignature(parent)) &&
      parent.name === node)
  )
}
