import type { GatewayPlugin, PluginOperations } from './api.js'
import { ATTESTATION_ICON, HOT_SWAP_ICON } from './plugin-icons.js'

/** The plugins Pinfold itself implements; the default catalog. */
export const BUILT_IN_PLUGINS: readonly GatewayPlugin[] = [
  {
    id: 1,
    name: 'Content Addressable Attestation',
    description:
      'Attach EIP-712 signatures to CIDs (POST /v3/files/{network}/signature/{cid}) to attest who published them.',
    image: ATTESTATION_ICON,
    tags: ['signatures', 'eip-712'],
  },
  {
    id: 2,
    name: 'Hot Swaps',
    description: 'Serve another CID in place of a CID through the gateway (PUT /v3/files/{network}/swap/{cid}).',
    image: HOT_SWAP_ICON,
    tags: ['gateway', 'swaps'],
  },
]

/** The marketplace's catalog (`createFileService({ gatewayPlugins })`); default {@link BUILT_IN_PLUGINS}. */
export interface PluginSettings {
  gatewayPlugins?: readonly GatewayPlugin[] | undefined
}

export function createPluginOperations({
  gatewayPlugins: catalog = BUILT_IN_PLUGINS,
}: PluginSettings): PluginOperations {
  // a snapshot taken at construction: changing the caller's catalog afterwards changes nothing
  const copy = (plugins: readonly GatewayPlugin[]) => plugins.map((plugin) => ({ ...plugin, tags: [...plugin.tags] }))
  const listed = copy(catalog)
  return {
    list: async () => copy(listed),
  }
}
