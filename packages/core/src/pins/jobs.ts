import type { PinJobSettings } from './pin-job.js'

/** What the operations in files of their own share: the service, the creation clock, the running jobs. */
export interface PinJobs {
  ctx: PinJobSettings
  /** A creation instant no other request of this process has (see `createStamps`). */
  stamp(): Date
  /** Stops the job of a request deleted or replaced here, if it runs in this process. */
  stop(id: string): void
}
