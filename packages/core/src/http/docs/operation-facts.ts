import { Context } from "effect"
import { HttpApi, type HttpApiGroup, OpenApi } from "effect/http-api"
import type { Scope } from "../../domain/credentials/scopes.js"
import { acceptedScopes, Idempotency, RequiredScope } from "../annotations.js"
import { resourceIdParamNames } from "../resource-id.js"

/** What the endpoint definitions say of an operation that its generated OpenAPI entry leaves out. */
export interface OperationFacts {
  /** The scopes of which the credential needs one; empty for public operations. */
  readonly scopes: ReadonlyArray<Scope>
  readonly idempotency: "none" | "optional" | "required"
  /** The path parameters that hold a resource id. */
  readonly idParams: ReadonlyArray<string>
}

/** The facts of every endpoint of `api`, by the operationId OpenAPI gives it. */
export const operationFacts = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyMap<string, OperationFacts> => {
  const facts = new Map<string, OperationFacts>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, mergedAnnotations }) => {
      // The same naming as OpenApi.fromApi, so each fact finds its operation.
      const operationId = Context.getOrElse(
        endpoint.annotations,
        OpenApi.Identifier,
        () => (group.topLevel ? endpoint.identifier : `${group.identifier}.${endpoint.identifier}`)
      )
      facts.set(operationId, {
        scopes: acceptedScopes(Context.get(mergedAnnotations, RequiredScope)),
        idempotency: Context.get(mergedAnnotations, Idempotency),
        idParams: resourceIdParamNames(endpoint.params)
      })
    }
  })
  return facts
}
