import { createApiClient } from './api-client.js'
import { CliError } from './cli-error.js'
import { type ClientCommand, CONNECTION_HELP, parse, parseKeyvalues, parsePositiveInteger } from './command-kit.js'
import { resolveConnection } from './connection.js'

/** A pin-by-CID request as `/v3/files/public/pin_by_cid` answers it (the fields printed). */
interface PinJob {
  id: string
  cid: string
  name: string
  status: string
  date_queued: string
  reason: string | null
}

const STATUSES = [
  'prechecking',
  'retrieving',
  'expired',
  'over_free_limit',
  'over_max_size',
  'invalid_object',
  'bad_host_node',
]

const pinOptions = {
  name: { type: 'string' },
  group: { type: 'string', short: 'g' },
  keyvalue: { type: 'string', short: 'k', multiple: true },
  'host-node': { type: 'string', multiple: true },
  status: { type: 'string' },
  cid: { type: 'string' },
  limit: { type: 'string' },
  'page-token': { type: 'string' },
  json: { type: 'boolean' },
} as const

/**
 * `pinfold pin add|ls|rm`: pin by CID (`ipfs pin remote` in Kubo's words), over the API's queue.
 * A request stays in the queue until the server has fetched and verified the DAG; it is then a
 * public file with the request's id (`pinfold ls -n public`).
 */
export const pin: ClientCommand = {
  options: pinOptions,
  usage: `Usage: pinfold pin <add|ls|rm> [args] [options]

Pin by CID: the server fetches a DAG from the IPFS network, checks every block and keeps it as a
public file whose id is the request's. Until then the request is in the queue (pin ls).

  pinfold pin add <cid> [--name N] [-g ID] [-k K=V] [--host-node MULTIADDR]...
                        queue a request; prints its id and status
  pinfold pin ls [--status S] [--cid CID] [--limit N] [--page-token T]
                        the requests not pinned yet (waiting, running, failed)
  pinfold pin rm <request-id>...
                        withdraw requests not pinned yet

Options:
      --name NAME           the file's name once pinned (default the CID)
  -g, --group ID            put the file in this group
  -k, --keyvalue K=V        metadata; repeat for several
      --host-node ADDR      a multiaddr of a peer holding the content (…/p2p/<peer id>); repeat
      --status S            ${STATUSES.join(', ')}
      --json                print the answer as JSON
${CONNECTION_HELP}

Examples:
  pinfold pin add bafy… --name dataset --json
  pinfold pin ls --status retrieving
  pinfold pin rm 3f0c…
`,
  async run(args, io) {
    const { values, positionals } = parse('pin', args, pinOptions)
    if (values.help) return void io.stdout.write(pin.usage)
    const [action, ...rest] = positionals
    const api = () => resolveConnection(values, io.env).then(createApiClient)
    const print = (json: unknown, text: string) =>
      io.stdout.write(values.json ? `${JSON.stringify(json, null, 2)}\n` : text)
    if (action === 'add') {
      if (rest.length !== 1) throw new CliError('pin add takes one CID: pinfold pin add <cid>', 2)
      const body = {
        cid: rest[0],
        name: values.name,
        group_id: values.group,
        keyvalues: parseKeyvalues(values.keyvalue),
        host_nodes: values['host-node'],
      }
      const { data } = await (await api()).json<{ data: PinJob }>('/v3/files/public/pin_by_cid', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      return void print(data, `${data.id}  ${data.status}  ${data.cid}\n`)
    }
    if (action === 'ls') {
      if (rest.length > 0) throw new CliError('pin ls takes no arguments, only options (see --help)', 2)
      if (values.status !== undefined && !STATUSES.includes(values.status))
        throw new CliError(`--status must be one of ${STATUSES.join(', ')}; got ${JSON.stringify(values.status)}`, 2)
      const query = new URLSearchParams()
      if (values.status) query.set('status', values.status)
      if (values.cid) query.set('cid', values.cid)
      const limit = parsePositiveInteger(values.limit, '--limit')
      if (limit !== undefined) query.set('limit', String(limit))
      if (values['page-token']) query.set('pageToken', values['page-token'])
      const { data } = await (await api()).json<{ data: { jobs: PinJob[]; next_page_token: string } }>(
        `/v3/files/public/pin_by_cid?${query}`,
      )
      const lines = data.jobs.map(
        (job) =>
          `${job.id}  ${job.status.padEnd(12)}  ${job.cid}  ${job.date_queued}  ${job.name}` +
          `${job.reason ? `  (${job.reason})` : ''}\n`,
      )
      print(data, lines.join(''))
      if (!values.json && data.jobs.length === 0) io.stderr.write('no pin requests in the queue\n')
      return
    }
    if (action === 'rm') {
      if (rest.length === 0) throw new CliError('pin rm takes at least one request id', 2)
      const client = await api()
      for (const id of rest) {
        await client.request(`/v3/files/public/pin_by_cid/${encodeURIComponent(id)}`, { method: 'DELETE' })
      }
      return void print({ deleted: rest }, rest.map((id) => `withdrew ${id}\n`).join(''))
    }
    throw new CliError(
      `pin takes add, ls or rm${action ? `, not ${JSON.stringify(action)}` : ''}; run \`pinfold pin --help\``,
      2,
    )
  },
}
