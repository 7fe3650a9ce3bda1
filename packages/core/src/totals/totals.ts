import type { ServiceContext } from '../service/context.js'
import type { TotalsOperations } from './api.js'

/** What the deployment totals use of the service. */
export type TotalsSettings = Pick<ServiceContext, 'records'>

export function createTotalsOperations(ctx: TotalsSettings): TotalsOperations {
  return {
    stored: (options = {}) => ctx.records.totals.storedTotals({ signal: options.signal }),
    pinStates: (options = {}) => ctx.records.totals.pinStateTotals({ signal: options.signal }),
  }
}
