export * from './errors.js'
export * from './model.js'
export type * from './ports.js'
export { BLOB_KEY_PATTERN } from './ports.js'
