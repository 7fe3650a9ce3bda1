import type { Schemas } from './wire'

/**
 * The wire shapes of the v3 API the console reads (snake_case, as the server sends them), by the
 * console's names: each is the server's own schema, generated into `wire.ts`, so they cannot drift.
 */

export type Network = Schemas['Network']
export const NETWORKS: readonly Network[] = ['public', 'private']

export type FileItem = Schemas['File']
export type FileList = Schemas['FileList']
export type Group = Schemas['Group']
export type GroupList = Schemas['GroupList']
export type Swap = Schemas['Swap']
export type VectorMatch = Schemas['VectorQueryResult']['matches'][number]
export type PaymentInstruction = Schemas['PaymentInstruction']
/** `GET /v3/pinata/keys` items, in the shape of the official SDK. */
export type ApiKey = Schemas['ApiKey']
export type UsageTotals = Schemas['UserPinnedDataTotal']
export type TimeSeries = Schemas['AnalyticsTimeSeries']
/** A pin-by-CID request still in the queue (waiting, running or failed). */
export type PinJob = Schemas['PinJob']
export type PinQueue = Schemas['PinQueue']
/** A custom gateway domain or a dedicated gateway name (`/v3/gateways/domains`). */
export type Domain = Schemas['Domain']
/** An entry of the tenant's audit log (`/v3/audit/events`), and a page of them. */
export type AuditEvent = Schemas['AuditEvent']
export type AuditEventPage = Schemas['AuditEventPage']
/** A webhook endpoint (`/v3/webhooks`), the event types it may receive, and one delivery to it. */
export type WebhookEndpoint = Schemas['WebhookEndpoint']
export type WebhookEventType = Schemas['WebhookEventType']
export type WebhookDelivery = Schemas['WebhookDelivery']
