import { DEPLOYMENT_TENANT_ID, type NewEvent } from '@pinfold/interface'
import { type EventFacts, operatorEvent, tenantEvent } from '../events/new-event.js'
import type { WebhookCaller, WebhookOwner } from './api.js'

/** Whose endpoints the caller acts on: its own tenant's, or those the operator names (`null`: its own). */
export function ownerOf(caller: WebhookCaller): WebhookOwner {
  return caller.kind === 'tenant' ? caller.actor.tenantId : caller.tenantId
}

/**
 * The audit entry of a change to one of the owner's endpoints, in the owner's log (the operator's
 * own endpoints belong to no tenant: `DEPLOYMENT_TENANT_ID`), naming who made it.
 */
export function endpointEvent(caller: WebhookCaller, endpointId: string, type: string, data: EventFacts['data']) {
  const facts: EventFacts = { type, target: { kind: 'webhook', id: endpointId }, data }
  const event: NewEvent =
    caller.kind === 'tenant'
      ? tenantEvent(caller.actor, facts)
      : operatorEvent(caller.operator, caller.tenantId ?? DEPLOYMENT_TENANT_ID, facts)
  return event
}

/** The reason an owner's or the operator's `enabled: false` records (an automatic disable says its own). */
export function disabledReason(caller: WebhookCaller, reason: string | undefined): string {
  const byOperatorForTenant = caller.kind === 'operator' && caller.tenantId !== null
  if (!byOperatorForTenant) return 'disabled by its owner'
  return reason ? `disabled by the operator: ${reason}` : 'disabled by the operator'
}
