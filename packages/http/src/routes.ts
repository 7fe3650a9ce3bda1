import { gatewayRoutes } from './gateway/routes.js'
import { routingRoutes } from './gateway/routing.js'
import { authRoutes } from './handlers/auth.js'
import { domainRoutes } from './handlers/domains.js'
import { downloadLinkRoutes } from './handlers/download-links.js'
import { fileRoutes } from './handlers/files.js'
import { filesSignRoutes } from './handlers/files-sign.js'
import { groupRoutes } from './handlers/groups.js'
import { healthRoutes } from './handlers/health.js'
import { keyRoutes } from './handlers/keys.js'
import { openApiRoutes } from './handlers/openapi.js'
import { paymentRoutes } from './handlers/payments.js'
import { pinRoutes } from './handlers/pins.js'
import { pluginRoutes } from './handlers/plugins.js'
import { signatureRoutes } from './handlers/signatures.js'
import { swapRoutes } from './handlers/swaps.js'
import { uploadRoutes } from './handlers/uploads.js'
import { usageRoutes } from './handlers/usage.js'
import { vectorRoutes } from './handlers/vectors.js'
import type { Route } from './router.js'

/** Every route the server answers, mirroring the spec's endpoint list. */
export const routes: readonly Route[] = [
  ...authRoutes,
  ...fileRoutes,
  ...pinRoutes,
  ...groupRoutes,
  ...downloadLinkRoutes,
  ...gatewayRoutes,
  ...filesSignRoutes,
  ...swapRoutes,
  ...signatureRoutes,
  ...pluginRoutes,
  ...domainRoutes,
  ...uploadRoutes,
  ...paymentRoutes,
  ...vectorRoutes,
  ...routingRoutes,
  ...keyRoutes,
  ...usageRoutes,
  ...healthRoutes,
  ...openApiRoutes,
]
