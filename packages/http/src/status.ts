import type { ErrorCode } from '@pinfold/core'

/** The one place where error codes become HTTP status codes. */
export const STATUS_BY_CODE = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  PAYMENT_REQUIRED: 402,
  FORBIDDEN: 403,
  // Pinata's "action not allowed": the account's plan (here, its limits) leaves no room
  QUOTA_EXCEEDED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  REQUEST_TIMEOUT: 408,
  PAYLOAD_TOO_LARGE: 413,
  UNPROCESSABLE: 422,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMITED: 429,
  // the default; a deny rule's `gateway_status` hint (in the error's details) takes its place
  BLOCKED: 410,
  // the client is gone; nobody reads this, but logs should not call it a server failure
  ABORTED: 499,
  STORAGE_DENIED: 500,
  INTERNAL: 500,
  NOT_IMPLEMENTED: 501,
  UNAVAILABLE: 503,
} as const satisfies Record<ErrorCode, number>
