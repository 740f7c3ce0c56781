import { Schema } from "effect"
import { ResourceId } from "../../domain/input/resource-id.js"
import { IDEMPOTENCY_KEY_MAX_LENGTH } from "../annotations.js"
import type { OperationFacts } from "./operation-facts.js"

/**
 * Each operation of a generated OpenAPI document completed from its endpoint's definition, for
 * the people and the generators that read it: the scopes it needs, the `Idempotency-Key` it
 * takes, its path ids as integers.
 */

type JsonObject = Record<string, unknown>

/** An OpenAPI operation, as much of it as is shaped here. */
export interface OperationObject extends JsonObject {
  readonly operationId?: string
  readonly description?: string
  readonly parameters?: ReadonlyArray<JsonObject>
  readonly security?: ReadonlyArray<Record<string, ReadonlyArray<string>>>
}

const isIdempotencyKey = (parameter: JsonObject) =>
  parameter.in === "header" && typeof parameter.name === "string" && parameter.name.toLowerCase() === "idempotency-key"

const idempotencyKeyParameter = (mode: "optional" | "required"): JsonObject => ({
  name: "Idempotency-Key",
  in: "header",
  required: mode === "required",
  description: mode === "required"
    ? "Required. A unique key per logical write (a UUID): a retry with the same key and body replays the first answer; the same key with another body answers 409 `idempotency_key_conflict`."
    : "Optional. A unique key per logical write (a UUID): a retry with the same key and body replays the first answer instead of writing twice.",
  schema: { type: "string", minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH },
  example: "0b9f6c1e-3a52-4c8e-9f1d-2f7a6b4c8d10"
})

// The id a path segment names, as the decoded side of its schema says (a positive safe integer).
const RESOURCE_ID_SCHEMA = Schema.toJsonSchemaDocument(ResourceId).schema

const isResourceIdSegment = (parameter: JsonObject, facts: OperationFacts) =>
  parameter.in === "path" && typeof parameter.name === "string" && facts.idParams.includes(parameter.name)

const scopesSentence = (scopes: ReadonlyArray<string>) =>
  scopes.length === 1
    ? `Requires the scope \`${scopes[0]}\`.`
    : `Requires one of the scopes ${scopes.map((scope) => `\`${scope}\``).join(", ")}.`

// Each accepted scope is an alternative requirement (OpenAPI 3.1 lets any scheme list roles).
const withScopes = (security: OperationObject["security"], scopes: ReadonlyArray<string>) =>
  security === undefined || security.length === 0 || scopes.length === 0
    ? security
    : security.flatMap((requirement) =>
      scopes.map((scope) => Object.fromEntries(Object.keys(requirement).map((scheme) => [scheme, [scope]])))
    )

/** One operation completed with its facts (none known: as generated). */
export const shapeOperation = (operation: OperationObject, facts: OperationFacts | undefined): OperationObject => {
  if (facts === undefined) return operation
  const parameters = (operation.parameters ?? [])
    .filter((parameter) => facts.idempotency === "none" || !isIdempotencyKey(parameter))
    .map((parameter) => (isResourceIdSegment(parameter, facts) ? { ...parameter, schema: RESOURCE_ID_SCHEMA } : parameter))
  const description = facts.scopes.length === 0
    ? operation.description
    : [operation.description, scopesSentence(facts.scopes)].filter((text) => text !== undefined).join("\n\n")
  return {
    ...operation,
    ...(description === undefined ? {} : { description }),
    parameters: facts.idempotency === "none" ? parameters : [...parameters, idempotencyKeyParameter(facts.idempotency)],
    ...(operation.security === undefined ? {} : { security: withScopes(operation.security, facts.scopes) })
  }
}
