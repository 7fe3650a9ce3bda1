import { homedir } from 'node:os'
import { basename, join } from 'node:path'
import { parseArgs } from 'node:util'
import type { Network } from '@pinfold/core'
import { createApiClient } from './api-client.js'
import { CliError } from './cli-error.js'
import { resolveConnection } from './connection.js'
import { download, fileSink, linkFor, listFiles, networkOf, removeFiles } from './file-commands.js'
import { formatBytes, parseDuration } from './format.js'
import { createProgress, progressMode } from './progress.js'
import { uploadPath } from './upload-command.js'

/** A command that talks to a running server: its usage text and what it does with its arguments. */
export interface ClientCommand {
  readonly usage: string
  run(args: string[], io: CommandIo): Promise<void>
}

export interface CommandIo {
  stdout: NodeJS.WriteStream
  stderr: NodeJS.WriteStream
  env: NodeJS.ProcessEnv
  /** Fires on Ctrl-C: transfers stop (a resumable upload keeps what the server has). */
  signal: AbortSignal
}

const CONNECTION_HELP = `
Connection (each from the first place that has it):
  --url URL         the server (PINFOLD_URL, "url" in the config file; default http://127.0.0.1:3000)
  --token TOKEN     a bearer token (PINFOLD_TOKEN, "token" in the config file; default the local
                    server's .pinfold/dev-token)
  --config FILE     a JSON config file {"url": …, "token": …} (PINFOLD_CONFIG; default
                    $XDG_CONFIG_HOME/pinfold/config.json)`

const connectionOptions = {
  url: { type: 'string' },
  token: { type: 'string' },
  config: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const

const networkOption = { network: { type: 'string', short: 'n' } } as const

function parseNetwork(value: string | undefined, fallback: Network): Network
function parseNetwork(value: string | undefined, fallback?: undefined): Network | undefined
function parseNetwork(value: string | undefined, fallback?: Network): Network | undefined {
  if (value === undefined) return fallback
  if (value === 'public' || value === 'private') return value
  throw new CliError(`--network must be public or private; got ${JSON.stringify(value)}`, 2)
}

/** `k=v` pairs into an object; a pair without `=` is a usage mistake, not an empty value. */
function parseKeyvalues(pairs: readonly string[] | undefined): Record<string, string> | undefined {
  if (!pairs || pairs.length === 0) return undefined
  const keyvalues: Record<string, string> = {}
  for (const pair of pairs) {
    const at = pair.indexOf('=')
    if (at <= 0) throw new CliError(`--keyvalue takes key=value; got ${JSON.stringify(pair)}`, 2)
    keyvalues[pair.slice(0, at)] = pair.slice(at + 1)
  }
  return keyvalues
}

function parsePositiveInteger(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new CliError(`${flag} must be a positive integer; got ${JSON.stringify(value)}`, 2)
  return n
}

/**
 * `parseArgs` with this CLI's manners: an unknown flag or a missing value is a usage error naming
 * the command's help, never a stack trace.
 */
function parse<T extends NonNullable<Parameters<typeof parseArgs>[0]>['options']>(
  command: string,
  args: string[],
  options: T,
) {
  try {
    return parseArgs({ args, options: { ...connectionOptions, ...options }, allowPositionals: true, strict: true })
  } catch (error) {
    throw new CliError(`${(error as Error).message}\nRun \`pinfold ${command} --help\` for its options.`, 2)
  }
}

function progressTarget(io: CommandIo, json: boolean, flag: string | undefined) {
  // progress goes to stderr, so stdout stays the answer (a CID, JSON, the downloaded bytes)
  const mode = json && flag === undefined ? 'none' : progressMode(flag, io.stderr)
  return (label: string, total: number) => createProgress(mode, io.stderr, label, total)
}

const upload: ClientCommand = {
  usage: `Usage: pinfold upload <file|dir> [options]

Uploads a file, or a directory as one folder (every file below it, at its relative path).
Files over 90 MiB go through resumable uploads (tus, in 50 MiB PATCHes, as the pinata SDK does):
run the same command again after an interruption and it continues where the server stopped.

Options:
  -n, --network NET     public or private (default private, as the API)
      --name NAME       the record's name (default the file or directory name)
  -g, --group ID        put the file in this group
  -k, --keyvalue K=V    metadata; repeat for several
      --cid-version V   v0 or v1 (default v1)
      --resumable       use the resumable path whatever the size
      --progress MODE   auto (a bar on a terminal, else a line per 10%), bar, lines or none
      --json            print the stored record as JSON
${CONNECTION_HELP}
`,
  async run(args, io) {
    const { values, positionals } = parse('upload', args, {
      ...networkOption,
      name: { type: 'string' },
      group: { type: 'string', short: 'g' },
      keyvalue: { type: 'string', short: 'k', multiple: true },
      'cid-version': { type: 'string' },
      resumable: { type: 'boolean' },
      progress: { type: 'string' },
      json: { type: 'boolean' },
    })
    if (values.help) return void io.stdout.write(upload.usage)
    if (positionals.length !== 1) throw new CliError('upload takes one path: pinfold upload <file|dir>', 2)
    const cidVersion = values['cid-version']
    if (cidVersion !== undefined && cidVersion !== 'v0' && cidVersion !== 'v1')
      throw new CliError(`--cid-version must be v0 or v1; got ${JSON.stringify(cidVersion)}`, 2)
    const api = createApiClient(await resolveConnection(values, io.env))
    const record = await uploadPath(api, positionals[0]!, {
      network: parseNetwork(values.network, 'private'),
      name: values.name,
      groupId: values.group,
      keyvalues: parseKeyvalues(values.keyvalue),
      cidVersion,
      resumable: values.resumable ? true : undefined,
      resumeStatePath: join(
        io.env.XDG_STATE_HOME ?? join(homedir(), '.local', 'state'),
        'pinfold',
        'resumable-uploads.json',
      ),
      signal: io.signal,
      progress: progressTarget(io, values.json === true, values.progress),
    })
    if (values.json) io.stdout.write(`${JSON.stringify(record, null, 2)}\n`)
    else
      io.stdout.write(
        `${record.cid}\n` +
          `  id ${record.id}  ${record.network}  ${formatBytes(record.size)}` +
          `${record.number_of_files > 1 ? `  ${record.number_of_files} files` : ''}  ${record.name}\n`,
      )
  },
}

const ls: ClientCommand = {
  usage: `Usage: pinfold ls [options]

Lists files, newest first: id, CID, size, creation time and name.

Options:
  -n, --network NET     public or private (default private)
      --name PREFIX     names starting with PREFIX
      --cid CID         files holding this CID
  -g, --group ID        files in this group
      --mime TYPE       files of this MIME type
  -k, --keyvalue K=V    files with this metadata; repeat for several
      --limit N         at most N files (default the server's page size)
      --page-token T    the page after the one whose token this is (printed with --json)
      --json            print {files, next_page_token} as JSON
${CONNECTION_HELP}
`,
  async run(args, io) {
    const { values, positionals } = parse('ls', args, {
      ...networkOption,
      name: { type: 'string' },
      cid: { type: 'string' },
      group: { type: 'string', short: 'g' },
      mime: { type: 'string' },
      keyvalue: { type: 'string', short: 'k', multiple: true },
      limit: { type: 'string' },
      'page-token': { type: 'string' },
      json: { type: 'boolean' },
    })
    if (values.help) return void io.stdout.write(ls.usage)
    if (positionals.length > 0) throw new CliError('ls takes no arguments, only options (see --help)', 2)
    const api = createApiClient(await resolveConnection(values, io.env))
    const page = await listFiles(api, parseNetwork(values.network, 'private'), {
      name: values.name,
      cid: values.cid,
      group: values.group,
      mimeType: values.mime,
      keyvalues: parseKeyvalues(values.keyvalue),
      limit: parsePositiveInteger(values.limit, '--limit'),
      pageToken: values['page-token'],
    })
    if (values.json) {
      io.stdout.write(`${JSON.stringify({ files: page.files, next_page_token: page.nextPageToken }, null, 2)}\n`)
      return
    }
    for (const file of page.files) {
      io.stdout.write(
        `${file.id}  ${file.cid}  ${formatBytes(file.size).padStart(10)}  ${file.created_at}  ${file.name}\n`,
      )
    }
    if (page.files.length === 0) io.stderr.write('no files\n')
  },
}

const get: ClientCommand = {
  usage: `Usage: pinfold get <cid> [-o FILE] [options]

Downloads content to FILE (never overwritten), or to stdout. Private content is fetched through a
private download link living 5 minutes.

Options:
  -o, --output FILE     where to write (default stdout)
  -n, --network NET     public or private (default: private when you hold it privately, else public)
      --progress MODE   auto, bar, lines or none (default: none to stdout, else auto)
${CONNECTION_HELP}
`,
  async run(args, io) {
    const { values, positionals } = parse('get', args, {
      ...networkOption,
      output: { type: 'string', short: 'o' },
      progress: { type: 'string' },
    })
    if (values.help) return void io.stdout.write(get.usage)
    if (positionals.length !== 1) throw new CliError('get takes one CID: pinfold get <cid> [-o FILE]', 2)
    const cid = positionals[0]!
    const api = createApiClient(await resolveConnection(values, io.env))
    const network = await networkOf(api, cid, parseNetwork(values.network))
    const out = values.output ? fileSink(values.output) : io.stdout
    const quiet = values.output === undefined && values.progress === undefined
    const mode = quiet ? 'none' : progressMode(values.progress, io.stderr)
    const bytes = await download(
      api,
      cid,
      network,
      out,
      (total) => createProgress(mode, io.stderr, values.output ? basename(values.output) : cid, total),
      io.signal,
    )
    if (values.output) io.stderr.write(`${values.output}: ${formatBytes(bytes)}\n`)
  },
}

const link: ClientCommand = {
  usage: `Usage: pinfold link <cid> [options]

Prints a URL that serves the content: the public gateway URL for public content, else a signed
private download link.

Options:
  -n, --network NET     public or private (default: private when you hold it privately, else public)
      --expires SPAN    how long a private link works: seconds, or 30s, 15m, 1h, 7d, 2w (default 1h)
      --json            print {url, network, expires_in} as JSON
${CONNECTION_HELP}
`,
  async run(args, io) {
    const { values, positionals } = parse('link', args, {
      ...networkOption,
      expires: { type: 'string' },
      json: { type: 'boolean' },
    })
    if (values.help) return void io.stdout.write(link.usage)
    if (positionals.length !== 1) throw new CliError('link takes one CID: pinfold link <cid>', 2)
    const expires = parseDuration(values.expires ?? '1h', '--expires')
    const api = createApiClient(await resolveConnection(values, io.env))
    const network = await networkOf(api, positionals[0]!, parseNetwork(values.network))
    const url = await linkFor(api, positionals[0]!, network, expires)
    if (values.json)
      io.stdout.write(`${JSON.stringify({ url, network, expires_in: network === 'private' ? expires : null })}\n`)
    else io.stdout.write(`${url}\n`)
  },
}

const rm: ClientCommand = {
  usage: `Usage: pinfold rm <id|cid>... [options]

Deletes files by record id, or every record holding a CID. The bytes go once no record refers to them.

Options:
  -n, --network NET     public or private (default private)
      --json            print the deleted ids as JSON
${CONNECTION_HELP}
`,
  async run(args, io) {
    const { values, positionals } = parse('rm', args, { ...networkOption, json: { type: 'boolean' } })
    if (values.help) return void io.stdout.write(rm.usage)
    if (positionals.length === 0) throw new CliError('rm takes at least one id or CID', 2)
    const api = createApiClient(await resolveConnection(values, io.env))
    const removed = await removeFiles(api, positionals, parseNetwork(values.network, 'private'))
    io.stdout.write(
      values.json ? `${JSON.stringify({ deleted: removed })}\n` : removed.map((id) => `deleted ${id}\n`).join(''),
    )
  },
}

export const CLIENT_COMMANDS: Readonly<Record<string, ClientCommand>> = { upload, ls, get, link, rm }
