/** `FileService.plugins`: the contract (its operations are in `plugins.ts`). */

import type { CallOptions } from '@pinfold/interface'

/** A gateway plugin as the marketplace lists it (Pinata's shape). */
export interface GatewayPlugin {
  id: number
  name: string
  description: string
  /** An absolute URL of the plugin's icon (`https:`, or a `data:` URL as the built-in ones). */
  image: string
  tags: string[]
}

export interface PluginOperations {
  /** The marketplace listing configured by the host application (a copy: changing it changes nothing). */
  list(options?: CallOptions): Promise<GatewayPlugin[]>
}
