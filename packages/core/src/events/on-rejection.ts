import type { Actor } from '@pinfold/interface'

/**
 * Wraps a group of operations whose first argument is the acting tenant: when one rejects,
 * `record(actor, error)` runs (and is awaited, so the answer comes after what it records) before
 * the error is rethrown as it was. How refusals that change nothing still reach the audit log.
 */
export function onTenantRejection<T extends object>(
  operations: T,
  record: (actor: Actor, error: unknown) => Promise<void>,
): T {
  return Object.fromEntries(
    Object.entries(operations).map(([name, operation]) => [
      name,
      typeof operation !== 'function'
        ? operation
        : (...args: unknown[]) => {
            const result = operation.apply(operations, args)
            const actor = args[0] as Actor | undefined
            if (!(result instanceof Promise) || typeof actor?.tenantId !== 'string') return result
            return result.catch(async (error: unknown) => {
              await record(actor, error)
              throw error
            })
          },
    ]),
  ) as T
}
