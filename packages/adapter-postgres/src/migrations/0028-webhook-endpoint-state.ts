import type { Migration } from './index.js'

/**
 * Webhook endpoints' state beyond on/off: when and why one was disabled (by its owner, or by
 * Pinfold once every attempt had failed for long enough), since when its attempts have been
 * failing, and the secret a rotation replaced, still signing until its grace period ends.
 * Endpoints already disabled keep no reason (they were disabled by their owner, the only way then).
 */
export const webhookEndpointState: Migration = {
  version: 28,
  name: 'webhook-endpoint-state',
  statements: [
    `alter table webhook_endpoints
       add column disabled_at timestamptz,
       add column disabled_reason text,
       add column failing_since timestamptz,
       add column previous_secret text,
       add column previous_secret_expires_at timestamptz`,
    `update webhook_endpoints set disabled_at = updated_at, disabled_reason = 'disabled by its owner' where not enabled`,
  ],
}
