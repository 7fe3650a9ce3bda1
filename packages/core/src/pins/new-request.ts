import type { Actor, Clock, PinRequestRecord } from '@pinfold/interface'
import { invalid } from '@pinfold/interface'
import type { CID } from 'multiformats/cid'
import { parseCid } from '../common/parse-cid.js'
import { validateKeyvalues, validateName } from '../common/validate.js'
import { isIdentity, unkeepable } from '../content/dag/blocks.js'
import type { ContentPolicy } from '../denylist/content-policy.js'
import type { PinInput } from './api.js'
import { checkHostNodes } from './host-nodes.js'

/**
 * A clock whose instants never repeat nor go back within this process. The Pinning Service API
 * pages by `created` (`before` = the oldest one seen), so two requests created in the same
 * millisecond would let a page boundary fall between them and lose one.
 */
export function createStamps(clock: Clock): () => Date {
  let last = 0
  return () => {
    last = Math.max(clock.now().getTime(), last + 1)
    return new Date(last)
  }
}

/** A new `queued` request from what a caller gave, every field checked. */
export async function newPinRequest(
  actor: Actor,
  input: PinInput,
  id: string,
  createdAt: Date,
  deny: ContentPolicy,
): Promise<PinRequestRecord> {
  const cid = await checkPinnableCid(input?.cid, deny)
  return {
    id,
    tenantId: actor.tenantId,
    userId: actor.userId,
    cid,
    name: validateName(input.name ?? cid),
    groupId: input.groupId ?? null,
    keyvalues: validateKeyvalues(input.keyvalues ?? {}),
    hostNodes: checkHostNodes(input.hostNodes ?? []),
    state: 'queued',
    failure: null,
    reason: null,
    createdAt,
    attempts: 0,
    leaseOwner: null,
    leaseExpiresAt: null,
    replaces: null,
    dagSize: null,
  }
}

/** The CID as given, once it is one whose blocks Pinfold can verify, walk and keep. */
async function checkPinnableCid(value: unknown, deny: ContentPolicy): Promise<string> {
  if (typeof value !== 'string' || value.trim() === '') throw invalid('cid must be a non-empty string')
  const cid: CID = parseCid(value)
  if (isIdentity(cid)) throw invalid('an identity CID holds its bytes in itself: there is nothing to pin')
  deny.enforceCid(cid, 'pin')
  const problem = await unkeepable(cid)
  if (problem) throw invalid(`cid ${problem}`)
  return value
}
