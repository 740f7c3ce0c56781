import { Effect } from "effect"
import { Settings } from "../../services/settings.js"
import { nextLink } from "../paging.js"
import { CurrentRequest } from "../request-info.js"
import { documentationUrl, envelopeOf } from "../../presenters/envelope.js"

/**
 * Wraps one resource in the v3 success envelope. `links.self` is the request's URL, or for a
 * created resource (`createdAt`: its path, e.g. `/api/v3/orders/7`) the URL that reads it back.
 */
export const envelope = <A>(data: A, createdAt?: string) =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const info = yield* CurrentRequest
    return envelopeOf(data, createdAt === undefined ? info : { ...info, selfUrl: settings.baseUrl + createdAt }, settings.baseUrl)
  })

/** Wraps one page of a collection in the v3 collection envelope; `nextCursor` absent on the last page. */
export const collectionEnvelope = <A>(items: ReadonlyArray<A>, nextCursor: string | undefined) =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const info = yield* CurrentRequest
    return {
      data: items,
      links: {
        self: info.selfUrl,
        documentation: documentationUrl(settings.baseUrl),
        ...(nextCursor === undefined ? {} : { next: nextLink(info.selfUrl, nextCursor) })
      },
      pagination: { has_more: nextCursor !== undefined },
      meta: { api_version: "v3" as const, request_id: info.requestId }
    }
  })

/**
 * The v3 envelope as JSON text around data already serialised (`dataJson`), for documents kept as
 * text: the same bytes `JSON.stringify` gives the envelope `shell` holding that data.
 */
export const envelopeText = (dataJson: string, shell: { readonly links: unknown; readonly meta: unknown }): string =>
  envelopeHead(dataJson, JSON.stringify(shell.links)) + envelopeTail(shell.meta)

/** {@link envelopeText} up to its `meta`, with the links already serialised (`linksJson`). */
export const envelopeHead = (dataJson: string, linksJson: string): string => `{"data":${dataJson},"links":${linksJson},"meta":`

/** The rest of {@link envelopeText} after {@link envelopeHead}. */
export const envelopeTail = (meta: unknown): string => `${JSON.stringify(meta)}}`
