import type { BlockedNotice } from '@pinfold/interface'
import { contentBlockedFacts } from '../events/content-blocked.js'
import { type OperatorCaller, operatorEvent } from '../events/new-event.js'
import type { ServiceContext } from '../service/context.js'
import { OPERATOR_LIST } from './api.js'
import { holderEntries, straddlingTenant } from './holder-entries.js'
import { pathMatches } from './path-spec.js'
import type { DenyRule } from './rule.js'

/**
 * The `content.blocked` notices an operator rule being added owes the tenants whose stored content
 * it blocks, for the first page of its holders: one per tenant and CID spelling (as the held-content
 * scan keys them), naming its files, recorded with the rule in its own transaction on the line the
 * store gives it (`AddDenyRuleOptions.blockedNotices`). One page keeps that transaction bounded:
 * past a full page the held-content scan, which every instance's reload hands the new rule, reads
 * the holders a page at a time and skips those recorded here. The last tenant of a full page may
 * hold more on the next, so it is left to the scan too, which tells it once with all its files.
 * Only a rule that names a CID and blocks its root can be looked up (by the root's multihash,
 * whatever the CID's spelling); a path rule blocks only a path below, an allow rule blocks
 * nothing, and a double-hashed rule names no CID to look up.
 */
export async function blockedHolderNotices(
  ctx: Pick<ServiceContext, 'records' | 'denyHolderPage'>,
  rule: DenyRule,
  ruleId: string,
  operator: OperatorCaller | undefined,
  signal?: AbortSignal,
): Promise<Omit<BlockedNotice, 'line'>[]> {
  const { target } = rule
  if (rule.allow || target.kind !== 'ipfs' || !pathMatches(target.path, '')) return []
  const multihash = Buffer.from(target.key, 'latin1')
  const holders = await ctx.records.blocks.listRootHolders(multihash, ctx.denyHolderPage, { signal })
  const straddling = straddlingTenant(holders, ctx.denyHolderPage)
  return holderEntries(holders.filter((file) => file.tenantId !== straddling)).map(({ tenantId, cid, fileIds }) => {
    const facts = contentBlockedFacts(cid, { list: OPERATOR_LIST }, 'rule', { ruleId, rule: rule.text, fileIds })
    return { tenantId, cid, list: OPERATOR_LIST, event: operatorEvent(operator, tenantId, facts) }
  })
}
