import Type, { type Static } from 'typebox'
import type { IpfsPeer } from '../../ipfs-peer.js'
import { DateTime, named } from '../../schema.js'

export const Health = named(
  'Health',
  Type.Object({
    status: Type.Literal('ok'),
    ipfs: Type.Optional(
      Type.Object(
        {
          peer_id: Type.String(),
          addrs: Type.Array(Type.String(), { description: 'Multiaddrs IPFS peers reach the node at' }),
          dht: Type.Optional(
            Type.Object({
              mode: Type.Enum(['client', 'server']),
              reprovide_runs: Type.Integer({ description: 'Runs announcing every public root, since start' }),
              provided: Type.Integer({ description: 'Roots announced by the last run' }),
              failed: Type.Integer({ description: 'Roots the last run failed to announce' }),
              withdrawn: Type.Integer({ description: 'Roots the last run stopped announcing (deleted, expired)' }),
              last_run_at: Type.Union([DateTime, Type.Null()]),
            }),
          ),
        },
        { description: 'The embedded IPFS node, when `PINFOLD_IPFS_LISTEN` starts one' },
      ),
    ),
  }),
)

export const Readiness = named(
  'Readiness',
  Type.Object({
    status: Type.Enum(['ok', 'unavailable']),
    checks: Type.Object({ records: Type.Enum(['ok', 'failed']), blobs: Type.Enum(['ok', 'failed']) }),
    denylists: Type.Optional(
      Type.Array(
        Type.Object({
          list: Type.String(),
          rules: Type.Integer({ minimum: 0 }),
          state: Type.Enum(['ok', 'stale'], {
            description: 'stale: the last read failed; the last good version stays in force',
          }),
        }),
        { description: 'Each deny list in force, when there is one (`PINFOLD_DENYLISTS`, operator rules).' },
      ),
    ),
  }),
)

/** The process answers; the embedded IPFS node is reported when there is one. */
export function healthToWire(ipfsPeer: IpfsPeer | undefined): Static<typeof Health> {
  const ipfs = ipfsPeer && {
    peer_id: ipfsPeer.peerId,
    addrs: [...ipfsPeer.addrs],
    ...(ipfsPeer.dht && {
      dht: {
        mode: ipfsPeer.dht.mode,
        reprovide_runs: ipfsPeer.dht.runs,
        provided: ipfsPeer.dht.provided,
        failed: ipfsPeer.dht.failed,
        withdrawn: ipfsPeer.dht.withdrawn,
        last_run_at: ipfsPeer.dht.lastRunAt?.toISOString() ?? null,
      },
    }),
  }
  return { status: 'ok', ...(ipfs && { ipfs }) }
}
