/**
 * `createSharpTransformer()`: the gateway's image optimisation (`img-width`, `img-format`, …) on
 * sharp, for `createFetchHandler({ images: { transformer } })`.
 */
export { createSharpTransformer, type SharpTransformerOptions } from './sharp-transformer.js'
