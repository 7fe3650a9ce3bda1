/** A gateway plugin as the marketplace lists it (Pinata's shape). */
export interface GatewayPlugin {
  id: number
  name: string
  description: string
  image: string
  tags: string[]
}

/** The plugins Pinfold itself implements; the default catalog. */
export const BUILT_IN_PLUGINS: readonly GatewayPlugin[] = [
  {
    id: 1,
    name: 'Content Addressable Attestation',
    description:
      'Attach EIP-712 signatures to CIDs (POST /v3/files/{network}/signature/{cid}) to attest who published them.',
    image: '',
    tags: ['signatures', 'eip-712'],
  },
  {
    id: 2,
    name: 'Hot Swaps',
    description: 'Serve another CID in place of a CID through the gateway (PUT /v3/files/{network}/swap/{cid}).',
    image: '',
    tags: ['gateway', 'swaps'],
  },
]

export function createPluginOperations(catalog: readonly GatewayPlugin[] = BUILT_IN_PLUGINS) {
  const copy = () => catalog.map((plugin) => ({ ...plugin, tags: [...plugin.tags] }))
  return {
    /** The marketplace listing configured by the host application. */
    list: async (): Promise<GatewayPlugin[]> => copy(),
  }
}
