import type { HttpApiEndpoint, HttpApiGroup } from "effect/http-api"
import { OpenApi } from "effect/http-api"
import { DeprecatedOperation, LegacyGeneration } from "../annotations.js"

/** The name a deprecated operation is counted under: its method and path, parameters as `{name}`. */
export const operationName = (method: string, path: string): string =>
  `${method} ${path.replace(/:([A-Za-z0-9_]+)/g, "{$1}")}`

/**
 * Marks a group, after its prefix is applied, as the previous generation: the group carries
 * {@link LegacyGeneration}, and each endpoint is deprecated (OpenAPI) and counted under its
 * {@link operationName}. Endpoints added afterwards are not marked, so apply it last.
 */
export const legacyGeneration = <Id extends string, Endpoints extends HttpApiEndpoint.Constraint, TopLevel extends boolean>(
  group: HttpApiGroup.HttpApiGroup<Id, Endpoints, TopLevel>
): HttpApiGroup.HttpApiGroup<Id, Endpoints, TopLevel> => {
  // The group's type names only what its endpoints declare; at run time each is a whole endpoint.
  const endpoints = Object.values(group.endpoints) as ReadonlyArray<HttpApiEndpoint.Top>
  let marked = group.annotate(LegacyGeneration, true)
  for (const endpoint of endpoints) {
    const deprecated = endpoint
      .annotate(DeprecatedOperation, operationName(endpoint.method, endpoint.path))
      .annotate(OpenApi.Deprecated, true)
    // `add` replaces the endpoint of the same name with its annotated copy, of the same type.
    marked = marked.add(deprecated) as typeof marked
  }
  return marked
}
