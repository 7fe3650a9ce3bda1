import { authRoutes } from './handlers/auth.js'
import { fileRoutes } from './handlers/files.js'
import { groupRoutes } from './handlers/groups.js'
import type { Route } from './router.js'

/** Every route the server answers, mirroring the spec's endpoint list. */
export const routes: readonly Route[] = [...authRoutes, ...fileRoutes, ...groupRoutes]
