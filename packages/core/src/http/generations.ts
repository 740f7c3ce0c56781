import { Context } from "effect"
import { HttpApi, type HttpApiGroup } from "effect/http-api"
import { DeprecatedOperation, LegacyGeneration } from "./annotations.js"
import { SigncraftApi } from "./api/index.js"
import type { Generation } from "./request-info.js"

/** The paths of an API's previous-generation endpoints, read from the groups marked legacy. */
const legacyPaths = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyArray<{ readonly path: string; readonly operation: string | undefined }> => {
  const found: Array<{ readonly path: string; readonly operation: string | undefined }> = []
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, mergedAnnotations }) => {
      if (Context.get(mergedAnnotations, LegacyGeneration)) {
        found.push({ path: endpoint.path, operation: Context.get(endpoint.annotations, DeprecatedOperation) })
      }
    }
  })
  return found
}

/** Every deprecated operation of an API, by the name its calls are counted under. */
export const deprecatedOperations = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyArray<string> =>
  legacyPaths(api).flatMap(({ operation }) => (operation === undefined ? [] : [operation]))

/**
 * The path prefixes the previous generation owns: the first two segments of each legacy
 * endpoint's path, with the slash after them when the path goes on. A request under one
 * of them, even to no route, answers in the legacy format.
 */
export const legacyPrefixes = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyArray<string> => {
  const prefixes = new Set<string>()
  for (const { path } of legacyPaths(api)) {
    const [, first = "", second = "", ...rest] = path.split("/")
    prefixes.add(`/${first}/${second}${rest.length > 0 ? "/" : ""}`)
  }
  return [...prefixes]
}

const LEGACY_PREFIXES = legacyPrefixes(SigncraftApi)

/**
 * Tells the generation of a request from its path; `agentPath` is where this listener serves
 * the agent endpoint, if it does.
 */
export const generationOf = (pathname: string, agentPath?: string): Generation => {
  if (pathname === agentPath) return "agent"
  if (pathname.startsWith("/api/v3/") || pathname === "/api/v3") return "v3"
  if (LEGACY_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return "legacy"
  if (pathname.startsWith("/operator/")) return "operator"
  if (pathname.startsWith("/storefront/")) return "storefront"
  if (pathname.startsWith("/oauth/")) return "oauth"
  if (pathname === "/dashboard" || pathname.startsWith("/dashboard/")) return "dashboard"
  return "system"
}
