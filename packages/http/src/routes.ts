import { gatewayRoutes } from './gateway/routes.js'
import { openApiRoutes } from './openapi/routes.js'
import { adminRoutes } from './resources/admin/routes.js'
import { auditRoutes } from './resources/audit/routes.js'
import { authRoutes } from './resources/auth/routes.js'
import { denyRuleRoutes } from './resources/deny-rules/routes.js'
import { domainRoutes } from './resources/domains/routes.js'
import { downloadLinkRoutes } from './resources/download-links/routes.js'
import { fileRoutes } from './resources/files/routes.js'
import { filesSignRoutes } from './resources/files-sign/routes.js'
import { gatewayDenyRuleRoutes } from './resources/gateway-deny-rules/routes.js'
import { groupRoutes } from './resources/groups/routes.js'
import { healthRoutes } from './resources/health/routes.js'
import { keyRoutes } from './resources/keys/routes.js'
import { legacyGroupRoutes } from './resources/legacy-groups/routes.js'
import { legacyPinningRoutes } from './resources/legacy-pinning/routes.js'
import { limitRoutes } from './resources/limits/routes.js'
import { paymentRoutes } from './resources/payments/routes.js'
import { pinListRoutes } from './resources/pin-list/routes.js'
import { pinRoutes } from './resources/pins/routes.js'
import { pluginRoutes } from './resources/plugins/routes.js'
import { pinningServiceRoutes } from './resources/psa/routes.js'
import { routingRoutes } from './resources/routing/routes.js'
import { signatureRoutes } from './resources/signatures/routes.js'
import { swapRoutes } from './resources/swaps/routes.js'
import { uploadRoutes } from './resources/uploads/routes.js'
import { usageRoutes } from './resources/usage/routes.js'
import { vectorRoutes } from './resources/vectors/routes.js'
import { webhookRoutes } from './resources/webhooks/routes.js'
import type { Route } from './router.js'

/** Every route the server answers, mirroring the spec's endpoint list. */
export const routes: readonly Route[] = [
  ...authRoutes,
  ...fileRoutes,
  ...pinRoutes,
  ...pinningServiceRoutes,
  ...groupRoutes,
  ...downloadLinkRoutes,
  ...gatewayRoutes,
  ...filesSignRoutes,
  ...swapRoutes,
  ...signatureRoutes,
  ...pluginRoutes,
  ...domainRoutes,
  ...gatewayDenyRuleRoutes,
  ...uploadRoutes,
  ...paymentRoutes,
  ...vectorRoutes,
  ...routingRoutes,
  ...keyRoutes,
  ...usageRoutes,
  ...limitRoutes,
  ...legacyPinningRoutes,
  ...pinListRoutes,
  ...legacyGroupRoutes,
  ...healthRoutes,
  ...adminRoutes,
  ...denyRuleRoutes,
  ...webhookRoutes,
  ...auditRoutes,
  ...openApiRoutes,
]
