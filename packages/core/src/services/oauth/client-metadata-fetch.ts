import { Context, Effect, Layer } from "effect"
import type { CachingHeaders } from "../../domain/oauth/client-metadata-document.js"
import { keepAliveAgents, makeExchange, type OutboundHttpFailed, outboundPolicy, type OutboundPolicy } from "../outbound/outbound-http.js"
import { Settings } from "../settings.js"

/** Longest a client's metadata document may take to arrive, whole exchange included. */
export const DOCUMENT_FETCH_TIMEOUT_MS = 5_000

/** Most bytes of a metadata document read; a longer one is refused. */
export const DOCUMENT_MAX_BYTES = 64 * 1024

/** A fetched metadata document, before it is judged. */
export interface FetchedDocument {
  readonly status: number
  readonly contentType: string | undefined
  readonly body: string
  /** Whether the body arrived whole (not cut at the cap, not broken off). */
  readonly whole: boolean
  readonly caching: CachingHeaders
}

const header = (value: string | ReadonlyArray<string> | undefined): string | undefined =>
  typeof value === "string" ? value : value?.join(", ")

/**
 * Fetches client metadata documents for the authorization server: GET under the deployment's URL
 * policy (the one webhook deliveries follow, docs/security.md), within 5 s and 64 KB.
 */
export class ClientMetadataFetch extends Context.Service<ClientMetadataFetch, {
  readonly fetch: (url: string) => Effect.Effect<FetchedDocument, OutboundHttpFailed>
}>()("signcraft/ClientMetadataFetch") {
  /** A fetcher under `policy`; its connections close with the scope. */
  static readonly make = (policy: OutboundPolicy, timeoutMs = DOCUMENT_FETCH_TIMEOUT_MS) =>
    Effect.gen(function*() {
      const exchange = makeExchange(policy, yield* keepAliveAgents, timeoutMs, DOCUMENT_MAX_BYTES)
      return ClientMetadataFetch.of({
        fetch: (url) =>
          exchange("GET", url, { accept: "application/json", "user-agent": "signcraft-oauth/1" }).pipe(
            Effect.map((answer) => ({
              status: answer.status,
              contentType: header(answer.headers["content-type"]),
              body: answer.body,
              whole: answer.bodyRead === "whole",
              caching: {
                cacheControl: header(answer.headers["cache-control"]),
                expires: header(answer.headers.expires),
                date: header(answer.headers.date),
                age: header(answer.headers.age)
              }
            }))
          )
      })
    })

  /** The deployment's fetcher: {@link outboundPolicy} for the configured environment. */
  static readonly layer = Layer.effect(
    ClientMetadataFetch,
    Effect.gen(function*() {
      const settings = yield* Settings
      return yield* ClientMetadataFetch.make(outboundPolicy(settings.environment))
    })
  )
}
