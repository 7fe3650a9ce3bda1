import Type from 'typebox'
import { named } from '../../schema.js'

/** A marketplace plugin, as core lists it (already in wire names: no mapping). */
export const GatewayPlugin = named(
  'GatewayPlugin',
  Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    description: Type.String(),
    image: Type.String({
      format: 'uri',
      description: "The plugin's icon: an absolute URL (built-in plugins: a `data:` URL)",
    }),
    tags: Type.Array(Type.String()),
  }),
)
