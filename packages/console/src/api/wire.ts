// Generated from the OpenAPI document by packages/http/scripts/console-types.ts: do not edit.
// http/test/console-types.test.ts fails when this file no longer matches the server.

/** The server's named wire shapes (`components.schemas` of `/openapi.json`), by name. */
export interface Schemas {
  AdminPinRequest: {
    id: string
    tenant_id: string
    cid: string
    name: string
    state: 'queued' | 'retrieving' | 'pinned' | 'failed'
    failure: string | null
    reason: string | null
    attempts: number
    created_at: string
    lease_expires_at: string | null
  }
  AdminTenant: {
    id: string
    created_at: string
    /** Known by its first authenticated request (`token`) or created by the admin API (`admin`) */
    origin: 'token' | 'admin'
    suspension: {
      at: string
      reason: string
      /** Whether the gateways stopped serving its public content */
      hide_content: boolean
    } | null
  }
  AdminTenantAccount: {
    limits: Schemas['TenantLimits']
    usage: Schemas['TenantUsage']
    overrides: Schemas['TenantLimitOverrides']
  }
  AdminTenantDetail: {
    id: string
    created_at: string
    /** Known by its first authenticated request (`token`) or created by the admin API (`admin`) */
    origin: 'token' | 'admin'
    suspension: {
      at: string
      reason: string
      /** Whether the gateways stopped serving its public content */
      hide_content: boolean
    } | null
    /** Files held (both networks) and the sum of their sizes, as `GET /v3/usage/storage` gives them */
    usage: {
      files: number
      bytes: number
    }
    pins: {
      queued: number
      retrieving: number
      pinned: number
      failed: number
    }
    api_keys: {
      total: number
      active: number
    }
    account: Schemas['AdminTenantAccount']
  }
  AdminTenantSummary: {
    id: string
    created_at: string
    /** Known by its first authenticated request (`token`) or created by the admin API (`admin`) */
    origin: 'token' | 'admin'
    suspension: {
      at: string
      reason: string
      /** Whether the gateways stopped serving its public content */
      hide_content: boolean
    } | null
    /** Files held (both networks) and the sum of their sizes, as `GET /v3/usage/storage` gives them */
    usage: {
      files: number
      bytes: number
    }
    /** What it stores under deduplication, as `TenantUsage` counts it: the sum of its files’ sizes, its distinct contents, and their bytes it alone references or shares with other tenants */
    accounting: {
      logical_bytes: number
      contents: number
      sole_bytes: number
      shared_bytes: number
    }
    limits: Schemas['TenantLimits']
  }
  AdminTotals: {
    stored: {
      files: number
      logical_bytes: number
      contents: number
      physical_bytes: number
      blocks: number
    }
    pins: {
      state: 'queued' | 'retrieving' | 'pinned' | 'failed'
      count: number
      oldest_created_at: string | null
    }[]
  }
  AnalyticsTimeSeries: {
    total_requests: number
    total_bandwidth: number
    time_periods: {
      period_start_time: string
      requests: number
      bandwidth: number
    }[]
  }
  AnalyticsTopItem: {
    value: string
    requests: number
    /** Bytes */
    bandwidth: number
  }
  ApiKey: {
    id: string
    name: string
    key: string
    /** Always empty: secrets are stored hashed and shown once, at creation */
    secret: string
    max_uses: number | null
    /** Counted for keys with max_uses only */
    uses: number
    user_id: string
    /** The permissions the key was created with */
    scopes: Record<string, unknown>
    revoked: boolean
    createdAt: string
    updatedAt: string
  }
  AuditEvent: {
    /** A UUID */
    id: string
    /** Increases with every event the deployment records */
    seq: number
    tenant_id: string
    /** Dotted lowercase: `file.created`, `key.revoked`, `tenant.suspended`, … */
    type: string
    actor: {
      kind: 'user' | 'key' | 'operator' | 'system'
      /** The token’s user, the API key’s id, the operator, or the component */
      id: string
    }
    /** The `X-Request-Id` of the request that made the change; null for changes no request made */
    request_id: string | null
    target: {
      kind: string
      id: string
    }
    /** A few facts about the change (CID, name, size) */
    data: Record<string, unknown>
    at: string
  }
  AuditEventPage: {
    events: Schemas['AuditEvent'][]
    /** Empty on the last page */
    next_page_token: string
  }
  CreatedApiKey: {
    /** A bearer token of the key */
    JWT: string
    pinata_api_key: string
    /** Shown once: only its hash is stored */
    pinata_api_secret: string
  }
  CreatedGroup: Schemas['Group'] & {
    public: boolean
  }
  DenyRule: {
    id: string
    /** The rule in the compact denylist format (IPIP-383) */
    rule: string
    /** Its line in the operator’s list: later rules win over earlier ones */
    line: number
    created_at: string
  }
  Domain: {
    id: string
    domain: string
    status: 'pending_ownership' | 'active'
    /** The TXT record proving ownership; null for a dedicated gateway name (active at once) */
    verification: {
      type: 'TXT'
      name: string
      value: string
    } | null
    created_at: string
    verified_at: string | null
    /** When a pending claim lapses unless verified; null once active */
    expires_at: string | null
  }
  DomainInput: {
    /** Host name, e.g. files.example.com */
    domain?: string
    /** A dedicated gateway: claims `{name}.{PINFOLD_GATEWAY_DOMAIN}`, active at once */
    name?: string
  }
  DownloadLinkRequest: {
    /** A URL containing `/files/<cid>` */
    url: string
    /** Seconds the link stays valid */
    expires: number | string
    date?: (number | string) | null
    /** GET, the only method a link may grant */
    method?: string
  }
  DownloadSignRequest: {
    /** A URL containing `/files/<cid>` */
    url: string
    /** GET, the only method a link may grant */
    method: string
    /** Default 30 */
    expires?: (number | string) | null
    date?: (number | string) | null
  }
  /** Every failure: a message written for the client */
  Error: {
    error: string
  }
  File: {
    id: string
    name: string
    cid: string
    size: number
    number_of_files: number
    mime_type: string
    group_id: string | null
    /** Free-form metadata */
    keyvalues: Record<string, string>
    created_at: string
    /** Unix seconds; null when the file never expires */
    expires_at: number | null
    network: Schemas['Network']
    vectorized: boolean
  }
  FileList: {
    files: Schemas['File'][]
    /** Empty on the last page */
    next_page_token: string
  }
  FileUpdate: {
    name?: string
    /** Keys to set; a null value removes its key */
    keyvalues?: Record<string, string | number | boolean | null>
    /** Unix seconds; null or 0 clears */
    expires_at?: number | string | null
  }
  FileUpload: {
    /** One part per file; several parts (with paths as file names) make a folder; a CAR with `car=true` */
    file: string
    network?: Schemas['Network']
    /** Empty: the file name */
    name?: string
    /** Empty: no group */
    group_id?: string
    /** JSON-encoded object */
    keyvalues?: string
    cid_version?: 'v0' | 'v1' | 'unixfs-v1-2025'
    /** Unix seconds; empty or 0: never */
    expires_at?: string
    /** The file is a CAR to store as it is */
    car?: boolean
  }
  GatewayDenyRule: {
    id: string
    /** The rule in the compact denylist format (IPIP-383) */
    rule: string
    /** Its line in your gateways’ list (counted from 1): later rules win */
    line: number
    created_at: string
  }
  GatewayPlugin: {
    id: number
    name: string
    description: string
    /** The plugin's icon: an absolute URL (built-in plugins: a `data:` URL) */
    image: string
    tags: string[]
  }
  Group: {
    id: string
    name: string
    is_public: boolean
    created_at: string
  }
  GroupCids: {
    /** CIDs of the account’s public files */
    cids: string[]
  }
  GroupInput: {
    name?: string
    is_public?: boolean | ('true' | 'false')
  }
  GroupList: {
    groups: Schemas['Group'][]
    next_page_token: string
  }
  GroupUpdate: unknown | unknown
  HashMetadataInput: {
    /** The CID whose files change */
    ipfsPinHash: string
    name?: string
    /** Merged into the current ones; a null value removes its key */
    keyvalues?: Record<string, string | number | boolean | null> | null
  }
  Health: {
    status: 'ok'
    /** The embedded IPFS node, when `PINFOLD_IPFS_LISTEN` starts one */
    ipfs?: {
      peer_id: string
      /** Multiaddrs IPFS peers reach the node at */
      addrs: string[]
      dht?: {
        mode: 'client' | 'server'
        /** Runs announcing every public root, since start */
        reprovide_runs: number
        /** Roots announced by the last run */
        provided: number
        /** Roots the last run failed to announce */
        failed: number
        /** Roots the last run stopped announcing (deleted, expired) */
        withdrawn: number
        last_run_at: string | null
      }
    }
  }
  LegacyGroup: {
    id: string
    /** The account (tenant) the group belongs to */
    user_id: string
    name: string
    createdAt: string
    updatedAt: string
  }
  LegacyGroupInput: {
    name?: string
  }
  LegacyGroupList: Schemas['LegacyGroup'][]
  LegacyPin: {
    ID: string
    Name: string
    IpfsHash: string
    PinSize: number
    Timestamp: string
    NumberOfFiles: number
    MimeType: string
    GroupId: string | null
    Keyvalues: Record<string, string>
    isDuplicate: boolean
  }
  LegacySignatureInput: {
    /** A 0x-prefixed EIP-712 signature of `{address, cid, date}` */
    signature: string
    /** The 0x address that signed: required to verify */
    address?: string
  }
  LegacySwap: {
    mappedCid: string
    createdAt: string
  }
  Network: 'public' | 'private'
  PaymentInstruction: {
    id: string
    version: number
    payment_requirements: Schemas['PaymentRequirement'][]
    name: string
    description?: string
    created_at: string
  }
  PaymentInstructionCid: {
    payment_instruction_id: string
    cid: string
    created_at: string
  }
  PaymentInstructionCids: {
    cids: string[]
    next_page_token?: string
  }
  PaymentInstructionInput: {
    /** Required to create */
    name?: string
    description?: string | null
    /** Default: one requirement of the server's defaults */
    payment_requirements?: Schemas['PaymentRequirementInput'][]
  }
  PaymentInstructionList: {
    payment_instructions: Schemas['PaymentInstruction'][]
    /** Absent on the last page */
    next_page_token?: string
  }
  /** x402 v1 body; the v2 requirements are in the base64 `PAYMENT-REQUIRED` header */
  PaymentRequired: {
    x402Version: 1
    error: string
    accepts: Record<string, unknown>[]
  }
  PaymentRequirement: {
    asset: string
    pay_to: string
    network: string
    /** Atomic units of the asset */
    amount: string
    description?: string
  }
  PaymentRequirementInput: {
    /** A configured network, e.g. base-sepolia; default the first */
    network?: string
    /** The network's USDC contract (the default) */
    asset?: string
    /** 0x address paid; default the configured one */
    pay_to?: string
    /** Atomic units of the asset, e.g. "10000" */
    amount?: string | number
    description?: string
  }
  PinByCidInput: {
    /** Root CID of the DAG to fetch and keep */
    cid: string
    /** Defaults to the CID */
    name?: string
    group_id?: string | null
    /** Free-form metadata */
    keyvalues?: Record<string, string | number | boolean>
    /** Multiaddrs of peers holding the content, dialled first by a bitswap source: at most 20, each at most 512 characters, starting with the host (`/ip4`, `/ip6`, `/dns`, `/dns4`, `/dns6`) and ending with the peer id (`/p2p/…`). Only public addresses are dialled, checked after name resolution, unless the operator allows private ones. */
    host_nodes?: string[] | null
  }
  PinByHashAnswer: {
    /** The request id (the file it becomes has it too) */
    id: string
    ipfsHash: string
    status: 'prechecking' | 'retrieving'
    name: string
  }
  PinByHashInput: {
    /** The CID to fetch from the IPFS network and keep */
    hashToPin: string
    pinataMetadata?: {
      /** Empty or null: the default name */
      name?: string | null
      keyvalues?: Record<string, string | number | boolean> | null
    }
    pinataOptions?: {
      /** Multiaddrs of peers holding the content (`""`, as the SDK sends for none, is none) */
      hostNodes?: string[] | '' | null
      groupId?: string | null
    }
  }
  PinJob: {
    id: string
    cid: string
    /** The CID again, as the legacy pinJobs API named it */
    ipfs_pin_hash: string
    date_queued: string
    name: string
    status:
      | 'prechecking'
      | 'searching'
      | 'retrieving'
      | 'expired'
      | 'backfilled'
      | 'over_free_limit'
      | 'over_max_size'
      | 'invalid_object'
      | 'bad_host_node'
    /** Why a failed request failed; null otherwise */
    reason: string | null
    keyvalues: Record<string, string>
    host_nodes: string[]
    group_id: string | null
    pin_policy: {
      regions: {
        id: string
        desiredReplicationCount: number
      }[]
      version: number
    }
  }
  PinJobRows: {
    rows: Schemas['PinJob'][]
  }
  PinJsonInput: {
    /** The JSON to pin (any JSON value) */
    pinataContent: unknown
    pinataMetadata?: {
      /** Empty or null: the default name */
      name?: string | null
      keyvalues?: Record<string, string | number | boolean> | null
    }
    pinataOptions?: {
      /** Default 0 */
      cidVersion?: (0 | 1 | '0' | '1') | null
      groupId?: string | null
    }
  }
  PinList: {
    rows: Schemas['PinListRow'][]
  }
  PinListRow: {
    id: string
    ipfs_pin_hash: string
    size: number
    user_id: string
    date_pinned: string
    /** Always null: an unpinned file is deleted */
    date_unpinned: null
    metadata: {
      name: string
      keyvalues: Record<string, string>
    }
    /** Empty: one copy, in this deployment’s own store */
    regions: unknown[]
    mime_type: string
    number_of_files: number
    group_id: string | null
  }
  PinQueue: {
    jobs: Schemas['PinJob'][]
    /** Empty on the last page */
    next_page_token: string
  }
  /** The Pinning Service API’s `Failure`: every failure of its routes */
  PsaFailure: {
    error: {
      /** BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, INSUFFICIENT_FUNDS (409: reserved for refusals to spend: a payment the deployment requires), RATE_LIMITED (429, with Retry-After: too many requests, or the account’s share of the pin queue is full), SERVICE_UNAVAILABLE, INTERNAL_SERVER_ERROR, … */
      reason: string
      /** What went wrong, for people */
      details?: string
    }
  }
  /** The Pinning Service API’s `Pin` */
  PsaPin: {
    /** Root CID of the DAG to fetch and keep */
    cid: string
    /** Defaults to the CID; matched by `?name=` */
    name?: string
    /** Multiaddrs of peers holding the content, under the rules of `host_nodes`: starting with the host (`/ip4`, `/ip6`, `/dns`, `/dns4`, `/dns6`), ending with the peer id (`/p2p/…`), at most 512 characters; only public addresses are dialled, checked after name resolution, unless the operator allows private ones. */
    origins?: string[]
    /** Kept as the file’s keyvalues (at most 100 pairs, keys up to 255 characters, values up to 2048) and matched by `?meta=` */
    meta?: Record<string, string>
  }
  PsaPinResults: {
    /** How many requests the filter matches in all */
    count: number
    results: Schemas['PsaPinStatus'][]
  }
  /** The Pinning Service API’s `PinStatus` */
  PsaPinStatus: {
    /** The request’s id: also the id of the file it makes (`/v3/files/public/{id}`) */
    requestid: string
    status: 'queued' | 'pinning' | 'pinned' | 'failed'
    /** When the request was queued; unique within a process */
    created: string
    pin: Schemas['PsaPin']
    /** The embedded IPFS node’s multiaddrs (with `/p2p/<peer id>`) when the server runs one; otherwise the API host’s trustless gateway as the routing API names it (`/dns/<host>/tcp/443/https/p2p/<identity id of its URL>`): no libp2p peer, where the pinned blocks are served over HTTP */
    delegates: string[]
    /** `status_details` always (why a failed request failed, the attempt under way, the file a pinned one is); `dag_size` (bytes) once pinned */
    info: Record<string, string>
  }
  Readiness: {
    status: 'ok' | 'unavailable'
    checks: {
      records: 'ok' | 'failed'
      blobs: 'ok' | 'failed'
    }
    /** Each deny list in force, when there is one (`PINFOLD_DENYLISTS`, operator rules). */
    denylists?: {
      list: string
      rules: number
      /** stale: the last read failed; the last good version stays in force */
      state: 'ok' | 'stale'
    }[]
  }
  RoutingPeerRecord: {
    Schema: 'peer'
    /** Peer id (base58btc multihash) */
    ID: string
    /** Multiaddrs */
    Addrs: string[]
    /** `transport-bitswap`, `transport-ipfs-gateway-http` */
    Protocols: string[]
  }
  RoutingProviders: {
    Providers: Schemas['RoutingPeerRecord'][]
  }
  Signature: {
    cid: string
    signature: string
  }
  SignatureInput: {
    /** A 0x-prefixed EIP-712 signature of `{address, cid, date}` */
    signature: string
    /** The 0x address that signed */
    address: string
  }
  Swap: {
    mapped_cid: string
    created_at: string
  }
  SwapInput: {
    /** The CID to serve instead (the SDK sends this) */
    swap_cid?: string
    /** The same, in the spelling of Pinata's OpenAPI */
    swapCid?: string
  }
  TenantAccount: {
    limits: Schemas['TenantLimits']
    usage: Schemas['TenantUsage']
  }
  TenantLimitOverrides: {
    /** Bytes the account may store (the sum of its files’ sizes); null: no limit */
    storage_bytes?: number | null
    /** Files the account may hold, both networks; null: no limit */
    files?: number | null
    /** Bytes of one file, folder or CAR; null: no limit */
    file_bytes?: number | null
    /** Pin-by-CID requests queued or running; null: no limit */
    open_pin_requests?: number | null
    /** Authenticated API requests per minute; null: no limit */
    requests_per_minute?: number | null
    /** Files with stored vectors; null: no limit */
    vectorized_files?: number | null
  }
  TenantLimits: {
    /** Bytes the account may store (the sum of its files’ sizes); null: no limit */
    storage_bytes: number | null
    /** Files the account may hold, both networks; null: no limit */
    files: number | null
    /** Bytes of one file, folder or CAR; null: no limit */
    file_bytes: number | null
    /** Pin-by-CID requests queued or running; null: no limit */
    open_pin_requests: number | null
    /** Authenticated API requests per minute; null: no limit */
    requests_per_minute: number | null
    /** Files with stored vectors; null: no limit */
    vectorized_files: number | null
  }
  TenantUsage: {
    /** File records, both networks */
    files: number
    /** The sum of the files’ sizes (what `userPinnedDataTotal` reports) */
    logical_bytes: number
    /** Distinct contents (stored blobs) the files reference */
    contents: number
    /** Bytes of contents no other account references */
    sole_bytes: number
    /** Bytes of contents other accounts reference too, each counted in full */
    shared_bytes: number
    /** Pin-by-CID requests queued or running */
    open_pin_requests: number
    vectorized_files: number
  }
  UploadSignRequest: {
    /** Seconds the URL stays valid */
    expires: number | string
    /** Unix seconds the URL is signed at; default now */
    date?: number | string | null
    /** Bytes */
    max_file_size?: number | string | null
    allow_mime_types?: string[] | null
    group_id?: string | null
    keyvalues?: Record<string, string | number | boolean> | null
    filename?: string | null
    network?: Schemas['Network'] | null
  }
  UploadedFile: Schemas['File'] & {
    user_id: string
    is_duplicate: boolean
  }
  UserPinnedDataTotal: {
    pin_count: number
    /** Bytes */
    pin_size_total: number
    /** Bytes; Pinfold keeps one copy */
    pin_size_with_replications_total: number
  }
  VectorMutation: {
    success: true
    status: true
  }
  VectorQuery: {
    /** What to look for */
    text: string
    /** Most matches to return */
    limit?: number
  }
  VectorQueryResult: {
    count: number
    matches: {
      file_id: string
      cid: string
      score: number
    }[]
  }
  WebhookDelivery: {
    id: string
    /** The `webhook-id` of every attempt of this delivery */
    event_id: string
    event_type: string
    status: 'pending' | 'delivering' | 'delivered' | 'failed'
    attempts: number
    /** The HTTP status of the last answer; null when none came (refused address, timeout) */
    last_status_code: number | null
    last_error: string | null
    last_attempt_at: string | null
    /** When it is tried next; null once ended */
    next_attempt_at: string | null
    created_at: string
  }
  WebhookEndpoint: {
    id: string
    url: string
    /** Event types to receive: `file.created`, `file.deleted`, `file.updated`, `pin.queued`, `pin.pinned`, `pin.failed`, `key.revoked`, `quota.reached`, `content.blocked`, `endpoint.disabled` */
    event_types: Schemas['WebhookEventType'][]
    description: string
    /** A disabled endpoint is sent nothing: no new events are queued for it, and those queued wait until it is enabled again (`PATCH` with `enabled: true`) */
    enabled: boolean
    /** When it was disabled; null while enabled */
    disabled_at: string | null
    /** Why: `disabled by its owner`; `disabled by the operator` (with the operator’s reason after a colon, when it gave one); or, when Pinfold disabled it, that every attempt failed for the period the operator set (5 days unless configured) and the last error */
    disabled_reason: string | null
    /** The first failed attempt since the last delivered one; null when the last attempt delivered */
    failing_since: string | null
    /** The end of the last secret rotation’s grace period: until then deliveries are signed by the replaced secret too (two signatures in `webhook-signature`); null before any rotation */
    previous_secret_expires_at: string | null
    created_at: string
    updated_at: string
  }
  WebhookEventType:
    | 'file.created'
    | 'file.deleted'
    | 'file.updated'
    | 'pin.queued'
    | 'pin.pinned'
    | 'pin.failed'
    | 'key.revoked'
    | 'quota.reached'
    | 'content.blocked'
    | 'endpoint.disabled'
}
