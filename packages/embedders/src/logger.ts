/** Where embedders report one-off events (a fallback, a cache being built). Defaults to `console`. */
export interface EmbedderLogger {
  warn(message: string): void
  info?(message: string): void
}
