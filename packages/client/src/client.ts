import { randomUUID } from "node:crypto"
import { type Clock, systemClock } from "./clock.js"
import { makeV3Operations, type V3Operations } from "./operations.js"
import { bodyRetryAfter, problemOf } from "./problem.js"
import {
  type AttemptOutcome,
  type Backoff,
  decideRetry,
  DEFAULT_BACKOFF,
  isWrite,
  parseRetryAfterMs,
  type RetryDecision
} from "./retry-policy.js"

/** A query string's values; `undefined` members are left out. */
export type Query = Readonly<Record<string, string | number | boolean | undefined>>

/** What the request hook is told after every attempt. */
export interface AttemptEvent {
  readonly method: string
  readonly url: string
  /** 0 for the first attempt, 1 for the first retry, … */
  readonly attempt: number
  readonly idempotencyKey: string | undefined
  /** The answer's status, or undefined after a network failure. */
  readonly status: number | undefined
  /** `meta.request_id` / `request_id` / `X-Request-Id` of the answer, when it had one. */
  readonly requestId: string | undefined
  /** The network failure, when there was no answer. */
  readonly error: unknown
  /** How long the client waits before the next attempt, or undefined when it will not retry. */
  readonly retryInMs: number | undefined
}

/** Options of `new SigncraftClient(...)`. */
export interface SigncraftClientOptions {
  /** The service's origin, e.g. `https://api.example.com`. */
  readonly baseUrl: string
  readonly apiKey: string
  /** Retries after the first attempt (0: one attempt only). Default 3. */
  readonly maxRetries?: number
  /** The `fetch` to send with; default the global one (Node 20 and later). */
  readonly fetch?: typeof globalThis.fetch
  /** Called after every attempt, e.g. to log request ids. Its errors are not caught. */
  readonly onAttempt?: (event: AttemptEvent) => void
  /** Capped exponential backoff; default 0.5 s doubling to a 20 s cap, full jitter. */
  readonly backoff?: Backoff
  /** Time source; tests inject one. */
  readonly clock?: Clock
  /** Uniform in [0, 1), for jitter; default `Math.random`. */
  readonly random?: () => number
  /** Makes the `Idempotency-Key` of a write the caller gave none for; default a random UUID. */
  readonly newIdempotencyKey?: () => string
}

/** Options of one `request`. */
export interface RequestOptions {
  readonly query?: Query
  /** Sent as JSON; serialised once, so every retry sends the same bytes. */
  readonly body?: unknown
  /** The write's key; generated when absent, and kept across its retries. */
  readonly idempotencyKey?: string
}

/** A 2xx answer. */
export interface SigncraftResponse<Body = unknown> {
  readonly status: number
  readonly headers: Headers
  readonly body: Body
}

/** A v3 collection page: the members `paginate` relies on (unknown ones are tolerated). */
interface CollectionPage {
  readonly data?: ReadonlyArray<unknown>
  readonly links?: { readonly next?: string }
  readonly pagination?: { readonly has_more?: boolean }
}

const DEFAULT_MAX_RETRIES = 3

const parseBody = (text: string): unknown => {
  if (text === "") return undefined
  try {
    return JSON.parse(text)
  } catch {
    // Not JSON (a proxy's page, say): kept as text for the caller to see.
    return text
  }
}

const requestIdOf = (body: unknown, headers: Headers): string | undefined => {
  if (typeof body === "object" && body !== null) {
    const record = body as { readonly request_id?: unknown; readonly meta?: { readonly request_id?: unknown } }
    if (typeof record.request_id === "string") return record.request_id
    if (typeof record.meta?.request_id === "string") return record.meta.request_id
  }
  return headers.get("x-request-id") ?? undefined
}

/** A fully sent attempt: the answer and the instant it arrived, or the network failure. */
interface Answered {
  readonly _tag: "Answer"
  readonly response: Response
  readonly text: string
  readonly body: unknown
  readonly arrivedAt: number
}
type Attempt = Answered | { readonly _tag: "NetworkFailure"; readonly error: unknown; readonly arrivedAt: number }

/**
 * The v3 client (docs/client-and-cli.md): bearer authentication, an `Idempotency-Key` on
 * every write, the service's retry rules (`retry-policy.ts`), problem documents as `SigncraftProblem` rejections.
 */
export class SigncraftClient {
  readonly baseUrl: URL
  readonly maxRetries: number
  /** Typed methods, one per v3 operation, e.g. `client.v3.v3Commerce.createOrder({ payload })`. */
  readonly v3: V3Operations
  readonly #apiKey: string
  readonly #fetch: typeof globalThis.fetch
  readonly #onAttempt: ((event: AttemptEvent) => void) | undefined
  readonly #backoff: Backoff
  readonly #clock: Clock
  readonly #random: () => number
  readonly #newKey: () => string

  constructor(options: SigncraftClientOptions) {
    this.baseUrl = new URL(options.baseUrl)
    const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES
    if (!Number.isSafeInteger(maxRetries) || maxRetries < 0) throw new RangeError(`maxRetries must be a whole number >= 0, got ${maxRetries}`)
    this.maxRetries = maxRetries
    this.#apiKey = options.apiKey
    this.#fetch = options.fetch ?? globalThis.fetch
    this.#onAttempt = options.onAttempt
    this.#backoff = options.backoff ?? DEFAULT_BACKOFF
    this.#clock = options.clock ?? systemClock
    this.#random = options.random ?? Math.random
    this.#newKey = options.newIdempotencyKey ?? randomUUID
    this.v3 = makeV3Operations(this)
  }

  /**
   * Sends one v3 call, retrying as `retry-policy.ts` decides, and resolves the 2xx
   * answer; rejects with `SigncraftProblem` for any other answer, or with the network error
   * when no answer came within the retries.
   */
  async request<Body = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<SigncraftResponse<Body>> {
    const upper = method.toUpperCase()
    const headers: Record<string, string> = { accept: "application/json" }
    const body = options.body === undefined ? undefined : JSON.stringify(options.body)
    if (body !== undefined) headers["content-type"] = "application/json"
    if (options.idempotencyKey !== undefined) headers["idempotency-key"] = options.idempotencyKey
    const final = await this.#exchange(upper, this.#resolve(path, options.query), headers, body)
    if (final._tag === "NetworkFailure") throw final.error
    const { response } = final
    if (response.ok) return { status: response.status, headers: response.headers, body: final.body as Body }
    const retryAfterMs = this.#retryAfterMs(final)
    throw problemOf(response.status, final.body, retryAfterMs === undefined ? undefined : Math.ceil(retryAfterMs / 1000), response.headers)
  }

  /**
   * A `fetch` that sends through this client's rules (key, `Idempotency-Key`, retries) and
   * resolves the final answer whatever its status: for HTTP layers that read responses
   * themselves, such as Effect's `HttpApiClient` (see `@signcraft/client/effect`).
   */
  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init)
    const headers: Record<string, string> = {}
    request.headers.forEach((value, name) => {
      headers[name] = value
    })
    const body = request.body === null ? undefined : await request.text()
    const final = await this.#exchange(request.method.toUpperCase(), this.#resolve(request.url, undefined), headers, body)
    if (final._tag === "NetworkFailure") throw final.error
    // The body was already decoded and read: its transfer headers no longer describe it.
    const headersOut = new Headers(final.response.headers)
    headersOut.delete("content-encoding")
    headersOut.delete("content-length")
    return new Response(final.text === "" ? null : final.text, { status: final.response.status, headers: headersOut })
  }

  // Sends until an answer needs no retry or the retries run out; returns the last attempt.
  async #exchange(method: string, url: URL, extraHeaders: Record<string, string>, body: string | undefined): Promise<Attempt> {
    const headers: Record<string, string> = { ...extraHeaders, authorization: `Bearer ${this.#apiKey}` }
    // One key for the write and all its retries: the server replays instead of redoing.
    const idempotencyKey = isWrite(method) ? headers["idempotency-key"] ?? this.#newKey() : undefined
    if (idempotencyKey !== undefined) headers["idempotency-key"] = idempotencyKey
    for (let attempt = 0;; attempt++) {
      const sent = await this.#send(url, { method, headers, ...(body === undefined ? {} : { body }) })
      const decision: RetryDecision = sent._tag === "Answer" && sent.response.ok ? { _tag: "Stop" } : decideRetry({
        method,
        outcome: this.#outcomeOf(sent),
        retriesSoFar: attempt,
        maxRetries: this.maxRetries,
        random: this.#random,
        backoff: this.#backoff
      })
      this.#report({ method, url, attempt, idempotencyKey, sent, retryInMs: decision._tag === "Retry" ? decision.delayMs : undefined })
      if (decision._tag === "Stop") return sent
      // Measured from the answer's arrival: time spent reading its body is not waited again.
      const remaining = sent.arrivedAt + decision.delayMs - this.#clock.now()
      if (remaining > 0) await this.#clock.sleep(remaining)
    }
  }

  /**
   * Every item of a v3 collection, page after page: the first page from `path` and `query`,
   * then each `links.next` exactly as given while `pagination.has_more` is true.
   */
  async *paginate<Item = unknown>(path: string, query?: Query): AsyncGenerator<Item, void, undefined> {
    let page = (await this.request<CollectionPage>("GET", path, query === undefined ? {} : { query })).body
    for (;;) {
      for (const item of page.data ?? []) yield item as Item
      const next = page.links?.next
      if (page.pagination?.has_more !== true || typeof next !== "string") return
      page = (await this.request<CollectionPage>("GET", next)).body
    }
  }

  // A path, or an absolute URL (a `links.next`) used unchanged. The key is only ever sent to
  // the configured origin, whatever a response's links say.
  #resolve(path: string, query: Query | undefined): URL {
    const url = new URL(path, this.baseUrl)
    if (url.origin !== this.baseUrl.origin) throw new Error(`Refusing to send the API key to ${url.origin}: not ${this.baseUrl.origin}`)
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined) url.searchParams.append(name, String(value))
    }
    return url
  }

  async #send(url: URL, init: RequestInit): Promise<Attempt> {
    let response: Response
    try {
      response = await this.#fetch(url, init)
    } catch (error) {
      return { _tag: "NetworkFailure", error, arrivedAt: this.#clock.now() }
    }
    const arrivedAt = this.#clock.now()
    try {
      const text = await response.text()
      return { _tag: "Answer", response, text, body: parseBody(text), arrivedAt }
    } catch (error) {
      // The connection broke mid-body: as good as no answer.
      return { _tag: "NetworkFailure", error, arrivedAt: this.#clock.now() }
    }
  }

  #outcomeOf(sent: Attempt): AttemptOutcome {
    if (sent._tag === "NetworkFailure") return { _tag: "NetworkFailure" }
    const code = typeof sent.body === "object" && sent.body !== null ? (sent.body as { readonly code?: unknown }).code : undefined
    return {
      _tag: "Answer",
      status: sent.response.status,
      code: typeof code === "string" ? code : undefined,
      retryAfterMs: this.#retryAfterMs(sent)
    }
  }

  // The server's requested wait: `Retry-After`, else (malformed or absent) the body's `retry_after`.
  #retryAfterMs(sent: Answered): number | undefined {
    const fromHeader = parseRetryAfterMs(sent.response.headers.get("retry-after"), this.#clock.now())
    const fromBody = bodyRetryAfter(sent.body)
    return fromHeader ?? (fromBody === undefined ? undefined : fromBody * 1000)
  }

  #report(input: {
    readonly method: string
    readonly url: URL
    readonly attempt: number
    readonly idempotencyKey: string | undefined
    readonly sent: Attempt
    readonly retryInMs: number | undefined
  }): void {
    if (this.#onAttempt === undefined) return
    const { sent } = input
    this.#onAttempt({
      method: input.method,
      url: input.url.href,
      attempt: input.attempt,
      idempotencyKey: input.idempotencyKey,
      status: sent._tag === "Answer" ? sent.response.status : undefined,
      requestId: sent._tag === "Answer" ? requestIdOf(sent.body, sent.response.headers) : undefined,
      error: sent._tag === "NetworkFailure" ? sent.error : undefined,
      retryInMs: input.retryInMs
    })
  }
}
