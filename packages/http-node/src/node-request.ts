/** What the node bridge reads from node:http for one request. */
export interface NodeRequestInit {
  method: string
  /** Parsed once by the bridge (an unparsable one is its 400) and shared with the handler. */
  url: URL
  headers: Headers
  signal: AbortSignal
  body: ReadableStream<Uint8Array> | null
}

const init = Symbol('node request init')
const real = Symbol('real request')

/**
 * The `Request` the node bridge hands to the fetch handler. Building a full one costs more than
 * the rest of a small request: on Node 20, undici's constructor takes ~60 µs, most of it following
 * the abort signal. The handler only reads `method`, `url`, `headers`, `signal` and `body`, so
 * those come straight from what the bridge already has; anything else a caller asks for (`json()`,
 * `clone()`, `cache`…) builds the real Request once and answers from it. To `instanceof` it is a
 * Request.
 */
export class NodeRequest {
  readonly [init]: NodeRequestInit
  private [real]: Request | undefined

  constructor(value: NodeRequestInit) {
    this[init] = value
  }

  get method(): string {
    return this[init].method
  }

  get url(): string {
    return this[init].url.href
  }

  get headers(): Headers {
    return this[init].headers
  }

  get signal(): AbortSignal {
    return this[init].signal
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this[real]?.body ?? this[init].body
  }

  get bodyUsed(): boolean {
    return this[real]?.bodyUsed ?? this[init].body?.locked ?? false
  }

  /** The full Request, built on first need with the same method, url, headers, signal and body. */
  toRequest(): Request {
    const { method, url, headers, signal, body } = this[init]
    // required by Node's fetch for streaming request bodies
    this[real] ??= new Request(url, { method, headers, signal, body, duplex: 'half' } as RequestInit)
    return this[real]
  }
}

// Everything else on Request.prototype delegates to the full Request.
for (const [key, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(Request.prototype))) {
  if (key === 'constructor' || Object.hasOwn(NodeRequest.prototype, key)) continue
  if (descriptor.get) {
    Object.defineProperty(NodeRequest.prototype, key, {
      get(this: NodeRequest) {
        return Reflect.get(this.toRequest(), key)
      },
      configurable: true,
    })
  } else if (typeof descriptor.value === 'function') {
    Object.defineProperty(NodeRequest.prototype, key, {
      value(this: NodeRequest, ...args: unknown[]) {
        const request = this.toRequest()
        return (Reflect.get(request, key) as (...a: unknown[]) => unknown).apply(request, args)
      },
      configurable: true,
      writable: true,
    })
  }
}
Object.setPrototypeOf(NodeRequest.prototype, Request.prototype)
