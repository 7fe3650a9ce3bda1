/** The wire shapes of the v3 API the console reads (snake_case, as the server sends them). */

export type Network = 'public' | 'private'
export const NETWORKS: readonly Network[] = ['public', 'private']

export interface FileItem {
  id: string
  name: string | null
  cid: string
  size: number
  number_of_files: number
  mime_type: string
  group_id: string | null
  keyvalues: Record<string, string>
  created_at: string
  expires_at?: number | null
}

export interface FileList {
  files: FileItem[]
  next_page_token: string
}

export interface Group {
  id: string
  name: string
  is_public: boolean
  created_at: string
}

export interface GroupList {
  groups: Group[]
  next_page_token: string
}

export interface Swap {
  mapped_cid: string
  created_at: string
}

export interface VectorMatch {
  file_id: string
  cid: string
  score: number
}

export interface PaymentRequirement {
  asset: string
  pay_to: string
  network: string
  amount: string
  description?: string
}

export interface PaymentInstruction {
  id: string
  name: string
  description?: string
  payment_requirements: PaymentRequirement[]
  created_at: string
}

/** `GET /v3/pinata/keys` items (the parity branch), as the SDK types them. */
export interface ApiKey {
  id: string
  name: string
  key: string
  max_uses?: number | null
  uses?: number
  revoked: boolean
  createdAt?: string
  created_at?: string
}

export interface UsageTotals {
  pin_count: number
  pin_size_total: number
}

export interface TimePeriod {
  period_start_time: string
  requests: number
  bandwidth: number
}

export interface TimeSeries {
  total_requests: number
  total_bandwidth: number
  time_periods: TimePeriod[]
}
