import { homedir } from 'node:os'
import { basename, join } from 'node:path'
import { createApiClient } from './api-client.js'
import { CliError } from './cli-error.js'
import {
  type ClientCommand,
  CONNECTION_HELP,
  type CommandIo,
  networkOption,
  parse,
  parseKeyvalues,
  parseNetwork,
  parsePositiveInteger,
} from './command-kit.js'
import { resolveConnection } from './connection.js'
import { linkFor, listFiles, locate, removeFiles, verifiedGet } from './file-commands.js'
import { formatBytes, parseDuration } from './format.js'
import { pin } from './pin-commands.js'
import { createProgress, progressMode } from './progress.js'
import { uploadPath } from './upload-command.js'
import { parseCidArgument } from './verified-car.js'
import type { GetFormat } from './write-verified.js'

function progressTarget(io: CommandIo, json: boolean, flag: string | undefined) {
  // progress goes to stderr, so stdout stays the answer (a CID, JSON, the downloaded bytes)
  const mode = json && flag === undefined ? 'none' : progressMode(flag, io.stderr)
  return (label: string, total: number, from?: number) => createProgress(mode, io.stderr, label, total, { from })
}

const uploadOptions = {
  ...networkOption,
  name: { type: 'string' },
  group: { type: 'string', short: 'g' },
  keyvalue: { type: 'string', short: 'k', multiple: true },
  'cid-version': { type: 'string' },
  resumable: { type: 'boolean' },
  progress: { type: 'string' },
  json: { type: 'boolean' },
} as const

const upload: ClientCommand = {
  options: uploadOptions,
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

Examples:
  pinfold upload photo.jpg                      a private file; prints its CID
  pinfold upload ./site -n public --json        a folder, public, the record as JSON
  pinfold upload video.mp4 -k album=summer      with metadata; run again to resume
`,
  async run(args, io) {
    const { values, positionals } = parse('upload', args, uploadOptions)
    if (values.help) return void io.stdout.write(upload.usage)
    if (positionals.length !== 1) throw new CliError('upload takes one path: pinfold upload <file|dir>', 2)
    const cidVersion = values['cid-version']
    if (cidVersion !== undefined && cidVersion !== 'v0' && cidVersion !== 'v1')
      throw new CliError(`--cid-version must be v0 or v1; got ${JSON.stringify(cidVersion)}`, 2)
    const api = createApiClient(await resolveConnection(values, io.env))
    const progress = progressTarget(io, values.json === true, values.progress)
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
      progress,
      notice: (text) => void io.stderr.write(text),
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

const lsOptions = {
  ...networkOption,
  name: { type: 'string' },
  cid: { type: 'string' },
  group: { type: 'string', short: 'g' },
  mime: { type: 'string' },
  keyvalue: { type: 'string', short: 'k', multiple: true },
  limit: { type: 'string' },
  'page-token': { type: 'string' },
  json: { type: 'boolean' },
} as const

const ls: ClientCommand = {
  options: lsOptions,
  usage: `Usage: pinfold ls [options]

Lists files, newest first: id, network, CID, size, creation time and name. Without --network,
both networks (private, then public), as get, link and rm look a CID up.

Options:
  -n, --network NET     public or private (default both)
      --name PREFIX     names starting with PREFIX
      --cid CID         files holding this CID
  -g, --group ID        files in this group
      --mime TYPE       files of this MIME type
  -k, --keyvalue K=V    files with this metadata; repeat for several
      --limit N         at most N files per network (default the server's page size)
      --page-token T    the page after the one whose token this is (with --network; see --json)
      --json            print {files, next_page_token} as JSON ({private, public} tokens without --network)
${CONNECTION_HELP}

Examples:
  pinfold ls                                    every file, both networks
  pinfold ls -n public --name report --json     public files named report…, as JSON
  pinfold ls --cid bafy…                        the records holding a CID
`,
  async run(args, io) {
    const { values, positionals } = parse('ls', args, lsOptions)
    if (values.help) return void io.stdout.write(ls.usage)
    if (positionals.length > 0) throw new CliError('ls takes no arguments, only options (see --help)', 2)
    const asked = parseNetwork(values.network)
    if (values['page-token'] && !asked)
      throw new CliError('--page-token goes with --network (a token is one network’s)', 2)
    const api = createApiClient(await resolveConnection(values, io.env))
    const filter = {
      name: values.name,
      cid: values.cid,
      group: values.group,
      mimeType: values.mime,
      keyvalues: parseKeyvalues(values.keyvalue),
      limit: parsePositiveInteger(values.limit, '--limit'),
      pageToken: values['page-token'],
    }
    const networks = asked ? [asked] : (['private', 'public'] as const)
    const pages = await Promise.all(networks.map((network) => listFiles(api, network, filter)))
    const files = pages.flatMap((page) => page.files)
    if (values.json) {
      const tokens = asked
        ? pages[0]!.nextPageToken
        : { private: pages[0]!.nextPageToken, public: pages[1]!.nextPageToken }
      io.stdout.write(`${JSON.stringify({ files, next_page_token: tokens }, null, 2)}\n`)
      return
    }
    for (const file of files) {
      io.stdout.write(
        `${file.id}  ${file.network.padEnd(7)}  ${file.cid}  ${formatBytes(file.size).padStart(10)}  ${file.created_at}  ${file.name}\n`,
      )
    }
    if (files.length === 0) io.stderr.write('no files\n')
  },
}

const getOptions = {
  ...networkOption,
  output: { type: 'string', short: 'o' },
  archive: { type: 'string', short: 'a' },
  force: { type: 'boolean', short: 'f' },
  progress: { type: 'string' },
  json: { type: 'boolean' },
} as const

const get: ClientCommand = {
  options: getOptions,
  usage: `Usage: pinfold get <cid> [-o PATH] [options]

Downloads content as \`ipfs get\` does: a file to PATH (or stdout), a folder as its tree in PATH
(default ./<cid>). The server sends the blocks (a CAR, through a private link living 5 minutes
for private content) and every block is checked against its CID before anything is written: a
server that sends other bytes gets an error, not a file. PATH is never overwritten without --force.

Options:
  -o, --output PATH     where to write (default: stdout for a file or an archive, ./<cid> for a folder)
  -a, --archive FORMAT  tar (the file or the folder's tree, as \`ipfs get -a\`) or car (the blocks)
  -f, --force           replace PATH when it exists
  -n, --network NET     public or private (default: private when you hold it privately, else public)
      --progress MODE   auto, bar, lines or none (default: none to stdout, else auto)
      --json            print {cid, network, path, type, files, bytes} as JSON when written to PATH
${CONNECTION_HELP}

Examples:
  pinfold get bafy… -o photo.jpg                a file
  pinfold get bafy…                             a folder: its tree in ./bafy…
  pinfold get bafy… -a tar > site.tar           a folder as a TAR on stdout
  pinfold get bafy… -a car -o site.car --force  the verified blocks, replacing site.car
`,
  async run(args, io) {
    const { values, positionals } = parse('get', args, getOptions)
    if (values.help) return void io.stdout.write(get.usage)
    if (positionals.length !== 1) throw new CliError('get takes one CID: pinfold get <cid> [-o PATH]', 2)
    const format = parseArchive(values.archive)
    const cid = parseCidArgument(positionals[0]!)
    const api = createApiClient(await resolveConnection(values, io.env))
    const where = await locate(api, cid.toString(), parseNetwork(values.network))
    const output = values.output
    const quiet = (output === undefined || values.json) && values.progress === undefined
    const mode = quiet ? 'none' : progressMode(values.progress, io.stderr)
    const written = await verifiedGet(api, cid, where, {
      output,
      // a folder without -o goes to ./<cid> as with `ipfs get`; a file (or an archive) to stdout
      folderOutput: cid.toString(),
      format,
      force: values.force === true,
      stdout: io.stdout,
      progress: (total) => createProgress(mode, io.stderr, output ? basename(output) : cid.toString(), total),
      signal: io.signal,
    })
    if (written.path === null) return
    if (values.json) io.stdout.write(`${JSON.stringify({ cid: cid.toString(), network: where.network, ...written })}\n`)
    else {
      const what = written.type === 'directory' && format === 'content' ? `a folder of ${written.files} file(s), ` : ''
      // a folder's record counts its whole DAG, more than the bytes of its files
      const size = where.record ? ` (${formatBytes(where.record.size)} as its record says)` : ''
      io.stderr.write(`${written.path}: ${what}${formatBytes(written.bytes)} written${size}, verified against ${cid}\n`)
    }
  },
}

function parseArchive(value: string | undefined): GetFormat {
  if (value === undefined) return 'content'
  if (value === 'tar' || value === 'car') return value
  throw new CliError(`--archive must be tar or car; got ${JSON.stringify(value)}`, 2)
}

const linkOptions = { ...networkOption, expires: { type: 'string' }, json: { type: 'boolean' } } as const

const link: ClientCommand = {
  options: linkOptions,
  usage: `Usage: pinfold link <cid> [options]

Prints a URL that serves the content: the public gateway URL for public content, else a signed
private download link.

Options:
  -n, --network NET     public or private (default: private when you hold it privately, else public)
      --expires SPAN    how long a private link works: seconds, or 30s, 15m, 1h, 7d, 2w (default 1h)
      --json            print {url, network, expires_in} as JSON
${CONNECTION_HELP}

Examples:
  pinfold link bafy…                            a URL to share
  pinfold link bafy… --expires 7d --json        a private link living a week, as JSON
`,
  async run(args, io) {
    const { values, positionals } = parse('link', args, linkOptions)
    if (values.help) return void io.stdout.write(link.usage)
    if (positionals.length !== 1) throw new CliError('link takes one CID: pinfold link <cid>', 2)
    const expires = parseDuration(values.expires ?? '1h', '--expires')
    const api = createApiClient(await resolveConnection(values, io.env))
    const { network } = await locate(api, positionals[0]!, parseNetwork(values.network))
    const url = await linkFor(api, positionals[0]!, network, expires)
    if (values.json)
      io.stdout.write(`${JSON.stringify({ url, network, expires_in: network === 'private' ? expires : null })}\n`)
    else io.stdout.write(`${url}\n`)
  },
}

const rmOptions = { ...networkOption, json: { type: 'boolean' } } as const

const rm: ClientCommand = {
  options: rmOptions,
  usage: `Usage: pinfold rm <id|cid>... [options]

Deletes files by record id, or every record holding a CID. Without --network each is looked up as
get and link do: private first, then public. The bytes go once no record refers to them.

Options:
  -n, --network NET     public or private (default: where it is, private first)
      --json            print the deleted {id, network} as JSON
${CONNECTION_HELP}

Examples:
  pinfold rm bafy…                              every record holding the CID
  pinfold rm 0b9e…-…-…  --json                  one record by id
`,
  async run(args, io) {
    const { values, positionals } = parse('rm', args, rmOptions)
    if (values.help) return void io.stdout.write(rm.usage)
    if (positionals.length === 0) throw new CliError('rm takes at least one id or CID', 2)
    const api = createApiClient(await resolveConnection(values, io.env))
    const removed = await removeFiles(api, positionals, parseNetwork(values.network))
    io.stdout.write(
      values.json
        ? `${JSON.stringify({ deleted: removed })}\n`
        : removed.map(({ id, network }) => `deleted ${id} (${network})\n`).join(''),
    )
  },
}

export const CLIENT_COMMANDS: Readonly<Record<string, ClientCommand>> = { upload, ls, get, link, rm, pin }
