import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

/**
 * `docs/architecture.md` is the map a newcomer reads first; a map that drifted from the code sends
 * them the wrong way. This holds the page to the tree as it is at each run: the package diagram and
 * the table of what may import what against every package.json and every import of every `src/`,
 * the cycles it owns up to, the files it names, and the counts it states. Nothing here is a fixed list
 * of files: packages, folders and tests are found where they are, so a move fails this test only
 * where the page still says the old thing, and each failure names the line to change.
 *
 * Kept here, beside the README's checks: `server` is the package that depends on every other.
 */

const repo = fileURLToPath(new URL('../../../', import.meta.url))
const PAGE = 'docs/architecture.md'
const pageLines = readFileSync(join(repo, PAGE), 'utf8').split('\n')
/** Where a problem is, as an editor opens it: `docs/architecture.md:<line>`. */
const at = (index: number) => `${PAGE}:${index + 1}`

// ---- the workspace, read from the tree --------------------------------------------------------

interface Manifest {
  name: string
  private?: boolean
  exports?: unknown
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
  optionalDependencies?: Record<string, string>
  devDependencies?: Record<string, string>
}

type ImportKind = 'static' | 'type' | 'dynamic'
interface Import {
  file: string
  line: number
  specifier: string
  kind: ImportKind
}

interface Package {
  /** The name without `@pinfold/`, as the page writes it. */
  name: string
  dir: string
  manifest: Manifest
  /** Workspace packages in `dependencies`, `peerDependencies` or `optionalDependencies`. */
  production: Set<string>
  /** Workspace packages in `devDependencies`. */
  dev: Set<string>
  imports: Import[]
}

const SCOPE = '@pinfold/'
const SOURCE = /\.(ts|tsx|mts|js|mjs)$/
/** Folders of build output and installs: never what the page means by a file of the project. */
const NOT_SOURCE = new Set(['node_modules', '.git', 'dist', 'build', 'coverage'])

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (NOT_SOURCE.has(entry.name) || entry.name.startsWith('.')) return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : [path]
  })
}

/** Every module specifier of a source file: `import`, `export … from`, `import type`, `import()`. */
function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const found: Import[] = []
  const add = (node: ts.Node | undefined, kind: ImportKind) => {
    if (!node || !ts.isStringLiteralLike(node)) return
    const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1
    found.push({ file, line, specifier: node.text, kind })
  }
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node)) {
      // with verbatimModuleSyntax only `import type` is erased; `import { type A }` still loads the module
      add(node.moduleSpecifier, node.importClause?.isTypeOnly ? 'type' : 'static')
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier) {
      add(node.moduleSpecifier, node.isTypeOnly ? 'type' : 'static')
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      add(node.argument.literal, 'type')
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      add(node.arguments[0], 'dynamic')
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

function readWorkspace(): Map<string, Package> {
  const packagesDir = join(repo, 'packages')
  const read = readdirSync(packagesDir)
    .map((folder) => join(packagesDir, folder))
    .filter((dir) => existsSync(join(dir, 'package.json')))
    .map((dir) => ({ dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest }))
    .filter(({ manifest }) => manifest.name.startsWith(SCOPE))
  const names = new Set(read.map(({ manifest }) => manifest.name))
  const workspaceIn = (...fields: (Record<string, string> | undefined)[]) =>
    new Set(
      fields.flatMap((field) => Object.keys(field ?? {}).filter((name) => names.has(name))).map((name) => short(name)),
    )
  return new Map(
    read.map(({ dir, manifest }) => [
      short(manifest.name),
      {
        name: short(manifest.name),
        dir,
        manifest,
        production: workspaceIn(manifest.dependencies, manifest.peerDependencies, manifest.optionalDependencies),
        dev: workspaceIn(manifest.devDependencies),
        imports: filesUnder(join(dir, 'src'))
          .filter((file) => SOURCE.test(file))
          .flatMap(importsOf),
      },
    ]),
  )
}

const short = (name: string) => name.slice(SCOPE.length)
const workspace = readWorkspace()
/** `@pinfold/core/x` → `core`; undefined for anything but a workspace package. */
const workspacePackageOf = (specifier: string) => {
  if (!specifier.startsWith(SCOPE)) return undefined
  const name = specifier.slice(SCOPE.length).split('/')[0]!
  return workspace.has(name) ? name : undefined
}
/** The subpaths a package's `exports` opens (`.` alone for a string or a map of conditions). */
function exportedSubpaths({ exports }: Manifest): string[] {
  const keys = exports && typeof exports === 'object' ? Object.keys(exports) : []
  return keys.some((key) => key.startsWith('.')) ? keys : ['.']
}
const show = (i: Import) => `${relative(repo, i.file)}:${i.line}`

/**
 * The source file a relative specifier names: `./a.js` is `a.ts` in the sources (NodeNext), and the
 * console, which Vite bundles, leaves the extension out (`./api/client`).
 */
function resolveRelative(from: string, specifier: string): string | undefined {
  const base = resolve(dirname(from), specifier)
  const candidates = [
    base,
    base.replace(/\.(m?)js$/, '.$1ts'),
    base.replace(/\.js$/, '.tsx'),
    ...['.ts', '.tsx'].map((extension) => `${base}${extension}`),
    join(base, 'index.ts'),
  ]
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile())
}

// ---- the page, read as markdown ---------------------------------------------------------------

/** The lines of the `## title` section: [first, end). */
function section(title: string): [number, number] {
  const start = pageLines.indexOf(`## ${title}`)
  if (start < 0) throw new Error(`${PAGE} has no section "## ${title}": the test reads it by that name`)
  const next = pageLines.findIndex((line, index) => index > start && line.startsWith('## '))
  return [start + 1, next < 0 ? pageLines.length : next]
}

interface Row {
  line: number
  cells: string[]
}

/** The first table of a section, as its header cells and rows. */
function tableIn(title: string): { header: string[]; rows: Row[] } {
  const [from, to] = section(title)
  const cellsOf = (line: string) =>
    line
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim())
  const start = pageLines.findIndex((line, index) => index >= from && index < to && line.startsWith('|'))
  if (start < 0) throw new Error(`${PAGE}: section "${title}" has no table`)
  const rows: Row[] = []
  for (let index = start + 2; index < to && pageLines[index]!.startsWith('|'); index++) {
    rows.push({ line: index, cells: cellsOf(pageLines[index]!) })
  }
  return { header: cellsOf(pageLines[start]!), rows }
}

const backticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!)

/** Package names a table cell names in backticks: `core`, or `adapter-*` for every adapter. */
function packagesNamed(cell: string): string[] {
  return backticked(cell).flatMap((name) => {
    if (!name.endsWith('*')) return workspace.has(name) ? [name] : []
    const prefix = name.slice(0, -1)
    return [...workspace.keys()].filter((candidate) => candidate.startsWith(prefix))
  })
}

// ---- the diagram ------------------------------------------------------------------------------

interface DiagramNode {
  id: string
  line: number
  packages: string[]
}
interface Arrow {
  from: string
  to: string
  line: number
  /** undefined for a solid arrow; the label of a dotted one. */
  dotted?: string
}

/**
 * The mermaid flowchart of "Packages and what may import what": nodes `id["@pinfold/a<br/>what it
 * is"]` (a group names its packages before the first `<br/>`, separated by ` · `), and chains of
 * `-->` (a dependency) and `-. "label" .->` (a dotted arrow, whose label says what it is).
 */
function readDiagram() {
  const [from, to] = section('Packages and what may import what')
  const open = pageLines.findIndex((line, index) => index >= from && index < to && line.trim() === '```mermaid')
  if (open < 0) throw new Error(`${PAGE}: the section has no mermaid block`)
  const nodes = new Map<string, DiagramNode>()
  const arrows: Arrow[] = []
  const problems: string[] = []
  const define = (id: string, label: string, line: number) => {
    const earlier = nodes.get(id)
    if (earlier) problems.push(`${at(line)}: node ${id} is defined again (first at ${at(earlier.line)}): keep one`)
    const names = label
      .split('<br/>')[0]!
      .split(' · ')
      .map((name) => name.trim().replace(SCOPE, ''))
    for (const name of names.filter((n) => !workspace.has(n))) {
      problems.push(`${at(line)}: node ${id} names "${name}", which is no package under packages/`)
    }
    nodes.set(id, { id, line, packages: names.filter((n) => workspace.has(n)) })
  }
  const node = /\s*(\w+)(?:\["([^"]*)"\])?/y
  const arrow = /\s*(?:(-->)|-\.\s*(?:"([^"]*)"\s*)?\.->)/y
  for (let line = open + 1; line < to && pageLines[line]!.trim() !== '```'; line++) {
    const text = pageLines[line]!
    if (/^\s*(flowchart|graph)\b|^\s*%%|^\s*$/.test(text)) continue
    const chain: { id: string; label?: string }[] = []
    const labels: (string | undefined)[] = []
    node.lastIndex = 0
    let match = node.exec(text)
    while (match) {
      chain.push({ id: match[1]!, ...(match[2] === undefined ? {} : { label: match[2] }) })
      arrow.lastIndex = node.lastIndex
      const next = arrow.exec(text)
      if (!next) break
      labels.push(next[1] ? undefined : (next[2] ?? ''))
      node.lastIndex = arrow.lastIndex
      match = node.exec(text)
    }
    if (!match || text.slice(node.lastIndex).trim() !== '' || chain.length === labels.length) {
      problems.push(`${at(line)}: the test reads only \`id["label"]\` and chains of \`-->\` / \`-. "label" .->\` here`)
      continue
    }
    for (const { id, label } of chain) if (label !== undefined) define(id, label, line)
    for (const [index, dotted] of labels.entries()) {
      arrows.push({
        from: chain[index]!.id,
        to: chain[index + 1]!.id,
        line,
        ...(dotted === undefined ? {} : { dotted }),
      })
    }
  }
  for (const a of arrows) {
    for (const id of [a.from, a.to].filter((id) => !nodes.has(id))) {
      problems.push(`${at(a.line)}: arrow ${a.from} → ${a.to} names ${id}, which no node defines`)
    }
  }
  return { nodes, arrows, problems, line: open }
}

const diagram = readDiagram()
const nodeOf = (pkg: string) => [...diagram.nodes.values()].find((n) => n.packages.includes(pkg))
/** A dotted arrow labelled `import()` is a dependency loaded only by `import()`. */
const isLoadedLater = (a: Arrow) => a.dotted?.includes('import()') === true
const isDevArrow = (a: Arrow) => a.dotted?.includes('devDependency') === true

/** The strongly connected components (of more than one member) of a graph: its cycles. */
function cyclesOf(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: string[] = []
  const cycles: string[][] = []
  const visit = (v: string) => {
    index.set(v, index.size)
    low.set(v, index.get(v)!)
    stack.push(v)
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v)!, low.get(w)!))
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!))
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = []
      let w: string
      do {
        w = stack.pop()!
        component.push(w)
      } while (w !== v)
      if (component.length > 1) cycles.push(component.sort())
    }
  }
  for (const v of edges.keys()) if (!index.has(v)) visit(v)
  return cycles
}

describe(`${PAGE} against the code`, () => {
  it('the rules it states: each src/ imports only the workspace packages it declares, through their exports, and never a file outside its package; packages form no cycle', () => {
    const problems: string[] = []
    // the page links a package as packages/<name>, and the diagram names it without its scope
    for (const folder of readdirSync(join(repo, 'packages'))) {
      const manifest = join(repo, 'packages', folder, 'package.json')
      if (!existsSync(manifest)) continue
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as Manifest
      if (name !== `${SCOPE}${folder}`) {
        problems.push(`packages/${folder}/package.json: is named ${name}, not ${SCOPE}${folder}`)
      }
    }
    for (const pkg of workspace.values()) {
      const used = new Set<string>()
      for (const i of pkg.imports) {
        const target = workspacePackageOf(i.specifier)
        if (target && target !== pkg.name) {
          used.add(target)
          const subpath = `.${i.specifier.slice(SCOPE.length + target.length)}`
          if (!exportedSubpaths(workspace.get(target)!.manifest).includes(subpath)) {
            problems.push(`${show(i)}: ${i.specifier} reaches into ${target}'s files`)
          }
          if (!pkg.production.has(target)) {
            problems.push(`${show(i)}: imports ${SCOPE}${target}, which ${pkg.name}'s package.json does not depend on`)
          }
        }
        if (i.specifier.startsWith('.')) {
          const path = resolve(dirname(i.file), i.specifier)
          if (!path.startsWith(pkg.dir + sep)) problems.push(`${show(i)}: ${i.specifier} leaves the package`)
          else if (path.startsWith(join(pkg.dir, 'test') + sep)) problems.push(`${show(i)}: src/ imports a test`)
        }
      }
      const manifest = relative(repo, join(pkg.dir, 'package.json'))
      for (const dependency of pkg.production) {
        if (!used.has(dependency)) {
          problems.push(`${manifest}: depends on ${SCOPE}${dependency}, which no file of src/ imports`)
        }
        if (workspace.get(dependency)!.manifest.private) {
          problems.push(`${manifest}: depends on the private ${SCOPE}${dependency} (a devDependency at most)`)
        }
      }
    }
    const graph = new Map([...workspace.values()].map((pkg) => [pkg.name, pkg.production]))
    for (const cycle of cyclesOf(graph)) problems.push(`packages depend on each other in a cycle: ${cycle.join(', ')}`)
    expect(problems).toEqual([])
  })

  it('the diagram: one node per package, each package in one node', () => {
    const problems = [...diagram.problems]
    for (const pkg of workspace.keys()) {
      const holding = [...diagram.nodes.values()].filter((n) => n.packages.includes(pkg))
      if (holding.length === 0) problems.push(`${at(diagram.line)}: the diagram has no node for ${pkg}: add one`)
      if (holding.length > 1)
        problems.push(`${at(holding[1]!.line)}: ${pkg} is in nodes ${holding.map((n) => n.id).join(', ')}`)
    }
    expect(problems).toEqual([])
  })

  it('the diagram: each arrow is in package.json as what it is drawn as, for every package of a group', () => {
    const problems: string[] = []
    for (const a of diagram.arrows) {
      const drawn = `\`${a.from} ${a.dotted === undefined ? '-->' : `-. "${a.dotted}" .->`} ${a.to}\``
      if (a.dotted !== undefined && !isLoadedLater(a) && !isDevArrow(a)) {
        problems.push(`${at(a.line)}: ${drawn}: a dotted arrow's label says what it is: "import()" or "devDependency"`)
        continue
      }
      for (const from of diagram.nodes.get(a.from)?.packages ?? []) {
        const pkg = workspace.get(from)!
        for (const to of diagram.nodes.get(a.to)?.packages ?? []) {
          const declared = isDevArrow(a) ? pkg.dev : pkg.production
          const field = isDevArrow(a) ? 'devDependencies' : 'dependencies'
          if (!declared.has(to)) {
            problems.push(
              `${at(a.line)}: ${drawn} says ${from} → ${to}, but ${from}'s package.json has no ${SCOPE}${to} in ${field}`,
            )
            continue
          }
          // a type-only import loads nothing; any other static one loads the package with its importer
          const loaded = pkg.imports.find((i) => workspacePackageOf(i.specifier) === to && i.kind === 'static')
          if (isLoadedLater(a) && loaded) {
            problems.push(`${at(a.line)}: ${drawn} says import() only, but ${show(loaded)} imports ${to} statically`)
          }
        }
      }
    }
    expect(problems).toEqual([])
  })

  it('the diagram: every dependency in a package.json is drawn (an arrow, or a path of them)', () => {
    const problems: string[] = []
    const reaches = (from: string, to: string) => {
      const seen = new Set([from])
      const queue = [from]
      while (queue.length > 0) {
        const id = queue.pop()!
        for (const a of diagram.arrows.filter((x) => x.from === id && !isDevArrow(x))) {
          if (a.to === to) return true
          if (!seen.has(a.to)) {
            seen.add(a.to)
            queue.push(a.to)
          }
        }
      }
      return false
    }
    for (const pkg of workspace.values()) {
      const from = nodeOf(pkg.name)
      for (const dependency of pkg.production) {
        const to = nodeOf(dependency)
        if (from && to && !reaches(from.id, to.id)) {
          problems.push(`${at(diagram.line)}: ${pkg.name} depends on ${dependency}: draw \`${from.id} --> ${to.id}\``)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it('the table of what may import what: a row for each package; it imports only what its row allows, never what it forbids', () => {
    const { header, rows } = tableIn('Packages and what may import what')
    expect(header.slice(0, 3)).toEqual(['package', 'may import', 'must never import'])
    const problems: string[] = []
    const rowOf = new Map<string, Row>()
    for (const row of rows) {
      for (const name of packagesNamed(row.cells[0]!)) {
        if (rowOf.has(name)) problems.push(`${at(row.line)}: ${name} has a row already (${at(rowOf.get(name)!.line)})`)
        rowOf.set(name, row)
      }
    }
    for (const pkg of workspace.values()) {
      const row = rowOf.get(pkg.name)
      if (!row) {
        problems.push(`${at(rows.at(-1)!.line)}: the table has no row for ${pkg.name}: add one`)
        continue
      }
      const [, allowed = '', forbidden = ''] = row.cells
      const mayImport = new Set(packagesNamed(allowed))
      for (const dependency of pkg.production) {
        if (!allowed.includes('everything') && !mayImport.has(dependency)) {
          problems.push(
            `${at(row.line)}: ${pkg.name} depends on ${dependency}: name \`${dependency}\` under "may import"`,
          )
        }
      }
      for (const never of packagesNamed(forbidden).filter((name) => pkg.production.has(name))) {
        problems.push(`${at(row.line)}: ${pkg.name} must never import ${never}, but its package.json depends on it`)
      }
    }
    expect(problems).toEqual([])
  })

  it('the cycles inside packages it lists are the ones the imports make', () => {
    const edges = new Map<string, Set<string>>()
    for (const pkg of workspace.values()) {
      for (const i of pkg.imports.filter((x) => x.specifier.startsWith('.'))) {
        const target = resolveRelative(i.file, i.specifier)
        if (!target) continue
        const from = relative(repo, i.file)
        edges.set(from, (edges.get(from) ?? new Set()).add(relative(repo, target)))
      }
    }
    const cycles = cyclesOf(edges)
    const [from, to] = section('What is still short of the rules')
    const item = pageLines.findIndex((line, index) => index >= from && index < to && line.includes('**Cycles inside'))
    expect(
      item,
      `${PAGE}: "What is still short of the rules" lists the cycles as "**Cycles inside packages**"`,
    ).toBeGreaterThan(0)
    let end = item + 1
    while (end < to && /^\s{2,}\S/.test(pageLines[end]!)) end++
    const named = pageLines.slice(item, end).flatMap((line, offset) =>
      backticked(line)
        .filter((token) => SOURCE.test(token))
        .map((token) => ({ token, line: item + offset })),
    )
    const inCycle = (cycle: string[], token: string) => cycle.some((file) => file.endsWith(`/${token}`))
    const problems: string[] = []
    for (const { token, line } of named.filter((n) => !cycles.some((cycle) => inCycle(cycle, n.token)))) {
      problems.push(`${at(line)}: names ${token} as in a cycle; no cycle goes through it now`)
    }
    for (const cycle of cycles.filter((c) => !named.some((n) => inCycle(c, n.token)))) {
      problems.push(`${at(item)}: name this cycle: ${cycle.join(' ↔ ')}`)
    }
    expect(problems).toEqual([])
  })

  it('every file it links to or names in code exists', () => {
    const files = filesUnder(repo).map((file) => relative(repo, file).split(sep).join('/'))
    const folders = new Set(
      files.flatMap((file) =>
        file
          .split('/')
          .slice(0, -1)
          .map((_, i, parts) => parts.slice(0, i + 1).join('/')),
      ),
    )
    const problems: string[] = []
    const headings = new Set(
      pageLines
        .filter((line) => line.startsWith('#'))
        .map((line) =>
          line
            .replace(/^#+\s*/, '')
            .toLowerCase()
            .replace(/[^\p{L}\p{N} _-]/gu, '')
            .replace(/ /g, '-'),
        ),
    )
    let inCode = false
    for (const [index, line] of pageLines.entries()) {
      if (line.startsWith('```')) {
        inCode = !inCode
        continue
      }
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue
        const [path, anchor] = target!.split('#')
        if (path === '' && !headings.has(anchor!)) problems.push(`${at(index)}: no heading makes the anchor #${anchor}`)
        if (path !== '' && !existsSync(resolve(repo, 'docs', path!))) {
          problems.push(`${at(index)}: ${path} does not exist`)
        }
      }
      // a file named in code: by its whole path, or by its last segments where the sentence gives the rest
      const named = inCode
        ? [...line.matchAll(/[\w@.-]+(?:\/[\w@.-]+)*\.(?:ts|tsx|mts|mjs)\b/g)].map((match) => match[0])
        : backticked(line).filter((token) => /^[\w@.-]+(?:\/[\w@.-]+)*\.(?:ts|tsx|mts|mjs)$/.test(token))
      for (const name of named.filter((n) => !files.some((file) => file === n || file.endsWith(`/${n}`)))) {
        problems.push(`${at(index)}: no file is ${name}`)
      }
      // a folder of a package named in code: `server/test/console/`
      for (const folder of backticked(line).filter((token) => /^[\w.-]+(?:\/[\w.-]+)*\/$/.test(token))) {
        const path = folder.startsWith('packages/') ? folder : `packages/${folder}`
        const built = path.split('/').some((segment) => NOT_SOURCE.has(segment))
        if (workspace.has(path.split('/')[1]!) && !built && !folders.has(path.slice(0, -1))) {
          problems.push(`${at(index)}: no folder is ${folder}`)
        }
      }
    }
    expect(problems).toEqual([])
  })

  it('the test files it counts are the ones in the folders it links, and it counts nothing it cannot check', () => {
    const { header, rows } = tableIn('Tests')
    const where = header.indexOf('where')
    const size = header.indexOf('size')
    expect(
      [where, size].every((column) => column >= 0),
      'the Tests table has a "where" and a "size" column',
    ).toBe(true)
    const problems: string[] = []
    const checked = new Set<number>()
    for (const row of rows) {
      const stated = /^(\d+) test files$/.exec(row.cells[size]!)
      if (!stated) continue
      checked.add(row.line)
      const folders = [...row.cells[where]!.matchAll(/\]\(([^)\s]+\/)\)/g)].map((match) =>
        resolve(repo, 'docs', match[1]!),
      )
      const count = folders.flatMap((folder) => filesUnder(folder)).filter((file) => file.endsWith('.test.ts')).length
      if (count !== Number(stated[1])) {
        const names = folders.map((folder) => relative(repo, folder)).join(', ')
        problems.push(`${at(row.line)}: says ${stated[0]}; ${names} hold ${count}: write ${count} test files`)
      }
    }
    for (const [index, line] of pageLines.entries()) {
      if (checked.has(index)) continue
      for (const [count] of line.matchAll(/\b~?\d[\d,]* (?:test |source )?(?:files|tests)\b/g)) {
        problems.push(`${at(index)}: "${count}" is a count nothing checks: drop it, or state it in the Tests table`)
      }
    }
    expect(problems).toEqual([])
  })
})
