import type { NewEvent } from '@pinfold/interface'
import { contentBlockedFacts } from '../events/content-blocked.js'
import { type OperatorCaller, operatorEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import { OPERATOR_LIST } from './api.js'
import { pathMatches } from './path-spec.js'
import type { DenyRule } from './rule.js'

/** Files looked up per rule: past it a tenant's entry lists the first ones (the rule blocks them all). */
const MAX_HOLDERS = 1000
/** File ids one entry names at most. */
const MAX_FILE_IDS = 100

/**
 * The `content.blocked` entries an operator rule being added owes the tenants whose stored content
 * it blocks: one per tenant, naming its files, written in the rule's own transaction. Only a rule
 * that names a CID and blocks its root can be looked up (by the root's multihash, whatever the
 * CID's spelling); a path rule blocks only a path below, an allow rule blocks nothing, and a
 * double-hashed rule names no CID to look up.
 */
export async function blockedHolderEvents(
  ctx: Pick<ServiceContext, 'records'>,
  rule: DenyRule,
  ruleId: string,
  operator: OperatorCaller | undefined,
  signal?: AbortSignal,
): Promise<NewEvent[]> {
  const { target } = rule
  if (rule.allow || target.kind !== 'ipfs' || !pathMatches(target.path, '')) return []
  const holders = await ctx.records.blocks.listRootHolders(Buffer.from(target.key, 'latin1'), MAX_HOLDERS, { signal })
  const byTenant = new Map<string, typeof holders>()
  for (const file of holders) {
    const files = byTenant.get(file.tenantId)
    if (files) files.push(file)
    else byTenant.set(file.tenantId, [file])
  }
  return [...byTenant].map(([tenantId, files]) => {
    const cid = files[0]!.cid
    const facts = contentBlockedFacts(cid, { list: OPERATOR_LIST }, 'rule', {
      ruleId,
      rule: rule.text,
      fileIds: files.slice(0, MAX_FILE_IDS).map((file) => file.id),
    })
    return operatorEvent(operator, tenantId, facts)
  })
}
