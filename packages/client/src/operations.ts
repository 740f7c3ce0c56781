import { SigncraftApi } from "@signcraft/core/api"
import type { Schema } from "effect"
import type { HttpApi, HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import type { Query, SigncraftClient, SigncraftResponse } from "./client.js"

// The types below are computed from the HttpApi definition the server itself is built
// from, so an operation's typed call cannot drift from what the server accepts.

type AllGroups = typeof SigncraftApi extends HttpApi.HttpApi<infer _Id, infer Groups> ? Groups : never

/** The v3 groups of the API (the public API; operator and previous generation excluded). */
type V3Group = Extract<AllGroups, { readonly identifier: `v3${string}` }>

/** The name of a v3 group, e.g. `v3Commerce`. */
export type V3GroupName = HttpApiGroup.Identifier<V3Group>

type EndpointsOf<G extends V3GroupName> = HttpApiGroup.Endpoints<HttpApiGroup.WithIdentifier<V3Group, G>>

// `Type`, not `Encoded`: the endpoints' codecs encode to generic JSON, while their types are
// the JSON shapes themselves (plain objects, strings and numbers).
type Field<Name extends string, S> = [S] extends [never] ? unknown : S extends Schema.Top ? { readonly [K in Name]: S["Type"] } : unknown

/** The input of one v3 operation: its path `params`, `query` and `payload`. */
export type OperationInput<E> =
  & ([HttpApiEndpoint.Params<E>] extends [never] ? unknown
    // Path segments are text on the wire; ids may be given as the numbers the API returns.
    : HttpApiEndpoint.Params<E> extends Schema.Top ? { readonly params: { readonly [K in keyof HttpApiEndpoint.Params<E>["Type"]]: string | number } }
    : unknown)
  & Partial<Field<"query", HttpApiEndpoint.Query<E>>>
  & Field<"payload", HttpApiEndpoint.Payload<E>>
  & { readonly idempotencyKey?: string }

/** The 2xx body of one v3 operation, as received (unknown members may appear: ignore them). */
export type OperationOutput<E> = HttpApiEndpoint.Success<E> extends Schema.Top ? HttpApiEndpoint.Success<E>["Type"] : unknown

/** Promise-returning typed methods, one per v3 operation, grouped as in the API definition. */
export type V3Operations = {
  readonly [G in V3GroupName]: {
    readonly [E in EndpointsOf<G> as HttpApiEndpoint.Identifier<E>]: (
      input: OperationInput<E>
    ) => Promise<SigncraftResponse<OperationOutput<E>>>
  }
}

/** Fills `:name` segments of a route with the given params, URL-encoded. */
export const fillPath = (template: string, params: Readonly<Record<string, unknown>>): string =>
  template.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => {
    const value = params[name]
    if (value === undefined) throw new TypeError(`Missing path parameter ${name} for ${template}`)
    return encodeURIComponent(String(value))
  })

interface LooseInput {
  readonly params?: Readonly<Record<string, unknown>>
  readonly query?: Query
  readonly payload?: unknown
  readonly idempotencyKey?: string
}

/** Builds the typed v3 methods over `client.request`, reading methods and paths from the API definition. */
export const makeV3Operations = (client: SigncraftClient): V3Operations => {
  const groups: Record<string, Record<string, (input: LooseInput) => Promise<SigncraftResponse>>> = {}
  for (const [groupName, group] of Object.entries(SigncraftApi.groups)) {
    if (!groupName.startsWith("v3")) continue
    const methods: Record<string, (input: LooseInput) => Promise<SigncraftResponse>> = {}
    for (const [name, endpoint] of Object.entries(group.endpoints)) {
      methods[name] = (input) =>
        client.request(endpoint.method, fillPath(endpoint.path, input.params ?? {}), {
          ...(input.query === undefined ? {} : { query: input.query }),
          ...(input.payload === undefined ? {} : { body: input.payload }),
          ...(input.idempotencyKey === undefined ? {} : { idempotencyKey: input.idempotencyKey })
        })
    }
    groups[groupName] = methods
  }
  // The runtime table is the one the types are computed from: same groups, same names.
  return groups as unknown as V3Operations
}
