import { Context } from "effect"
import { randomBase62Pooled } from "../domain/credentials/api-key.js"

/** Which wire conventions a request's path selects. */
export type Generation = "v3" | "legacy" | "operator" | "storefront" | "oauth" | "agent" | "dashboard" | "system"

/** Facts about the request being served, provided to every handler by the router middleware. */
export interface RequestInfo {
  readonly requestId: string
  readonly generation: Generation
  /** The configured public base URL of the service. */
  readonly baseUrl: string
  /** The public URL of this request (`links.self`), on the configured base URL. */
  readonly selfUrl: string
  readonly clientIp: string
  /**
   * Headers inner layers want on whatever response this request gets, errors included (the
   * key's quota, say); the router middleware adds them last.
   */
  readonly responseHeaders: Map<string, string>
  /**
   * What made this request answer 5xx (an internal error's cause, an integrator's refusal),
   * recorded wherever the failure is rendered; the router middleware logs it with the request id,
   * since the answer itself tells the client nothing of it.
   */
  readonly faults: Array<unknown>
  /**
   * The request's JSON body as the router middleware parsed it to inspect it, for inner layers
   * that read the body's value (the Idempotency-Key fingerprint) to use instead of parsing again.
   */
  parsedBody?: { readonly value: unknown }
  /** The Store the request acts for, once its API key is known: logged and put on its span. */
  storeId?: number
}

/** A fresh request id, `req_` and 24 base62 characters. */
export const newRequestId = (): string => `req_${randomBase62Pooled(24)}`

/**
 * The request being served. The router middleware provides it for every request; it is
 * a reference (with a stand-in default) so handlers can read it without declaring it.
 */
export const CurrentRequest = Context.Reference<RequestInfo>("signcraft/CurrentRequest", {
  defaultValue: () => ({ requestId: newRequestId(), generation: "system", baseUrl: "", selfUrl: "", clientIp: "unknown", responseHeaders: new Map(), faults: [] })
})

/**
 * The client's address when the host knows it but the request cannot carry it (a web
 * `Request` has no socket). Adapters pass it as the web handler's second argument, so the
 * per-IP quotas count each client apart instead of all in one "unknown" bucket.
 */
export const ClientAddress = Context.Reference<string | undefined>("signcraft/ClientAddress", {
  defaultValue: () => undefined
})

/** The context to pass as the web handler's second argument: `handler(request, clientAddressContext(ip))`. */
export const clientAddressContext = (address: string): Context.Context<never> => Context.make(ClientAddress, address)
