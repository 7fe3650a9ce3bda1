import type { Actor, EventActor, FileRecord, NewEvent, PinRequestRecord } from '@pinfold/interface'

/**
 * How core builds the audit log's entries: each write names what it changed and these fill in who
 * and which request from the call's actor. The entry rides in the write's `RecordedOptions.events`,
 * so the store appends it in the change's own transaction.
 */

/** What an event says beyond who did it: its type, target and a few facts (never a secret). */
export interface EventFacts {
  type: string
  target: { kind: string; id: string }
  data?: Record<string, unknown> | undefined
}

/** The tenant's API key when the call was made with one, else the token's user. */
export function eventActorOf(actor: Actor): EventActor {
  return actor.keyId ? { kind: 'key', id: actor.keyId } : { kind: 'user', id: actor.userId }
}

/** An event a tenant's call caused (a token or one of its keys). */
export function tenantEvent(actor: Actor, facts: EventFacts): NewEvent {
  return {
    tenantId: actor.tenantId,
    actor: eventActorOf(actor),
    requestId: actor.requestId ?? null,
    type: facts.type,
    target: facts.target,
    data: facts.data ?? {},
  }
}

/** Who called an admin operation: the operator token's subject and the request being served. */
export interface OperatorCaller {
  operatorId: string
  requestId?: string | undefined
}

/** An event the operator caused, about `tenantId`'s records (the deployment's: `DEPLOYMENT_TENANT_ID`). */
export function operatorEvent(operator: OperatorCaller | undefined, tenantId: string, facts: EventFacts): NewEvent {
  return {
    tenantId,
    actor: { kind: 'operator', id: operator?.operatorId ?? 'operator' },
    requestId: operator?.requestId ?? null,
    type: facts.type,
    target: facts.target,
    data: facts.data ?? {},
  }
}

/** An event Pinfold caused on its own (a pin job, an expiry sweep): no request made it. */
export function systemEvent(tenantId: string, facts: EventFacts, component: string): NewEvent {
  return {
    tenantId,
    actor: { kind: 'system', id: component },
    requestId: null,
    type: facts.type,
    target: facts.target,
    data: facts.data ?? {},
  }
}

/** The facts a pin request's events carry (`pin.queued`, `pin.pinned`, `pin.failed`, `pin.removed`). */
export function pinFacts(
  type: string,
  request: Pick<PinRequestRecord, 'id' | 'cid' | 'name'>,
  data: Record<string, unknown> = {},
): EventFacts {
  return { type, target: { kind: 'pin', id: request.id }, data: { cid: request.cid, name: request.name, ...data } }
}

/** The facts a file's events carry: enough for a webhook to act on, nothing the tenant did not give. */
export function fileFacts(
  type: string,
  file: Pick<FileRecord, 'id' | 'cid' | 'name' | 'size' | 'network'>,
): EventFacts {
  return {
    type,
    target: { kind: 'file', id: file.id },
    data: { cid: file.cid, name: file.name, size: file.size, network: file.network },
  }
}
