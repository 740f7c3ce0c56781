import { Schema, type SchemaAST, type SchemaIssue, SchemaTransformation } from "effect"
import { ResourceId } from "../domain/input/resource-id.js"
import { eventIdOfWebhookId, WEBHOOK_ID_PATTERN, webhookIdOf } from "../domain/webhooks/webhook-id.js"

/** Decimal digits with no sign, leading zero, exponent or hex: `0x3`, `1e2` and `01` name nothing. */
export const DECIMAL_ID = /^[1-9]\d{0,15}$/

const RESOURCE_ANNOTATION = "signcraft/resource"

/**
 * A path segment holding the id of a `resource` ("customiser", "webhook delivery"). A segment
 * of any other shape names no resource, so it answers 404 like an unknown id, not a validation
 * error: clients treat both alike (refresh the list). The resource name words that 404.
 */
export const ResourceIdParam = (resource: string) =>
  Schema.String.check(
    Schema.isPattern(DECIMAL_ID, { [RESOURCE_ANNOTATION]: resource, expected: `the id of a ${resource}` })
  ).pipe(
    Schema.decodeTo(ResourceId, SchemaTransformation.transform({ decode: Number, encode: String }))
  ).annotate({ [RESOURCE_ANNOTATION]: resource })

// A schema with checks keeps its annotations on the last one.
const annotationsOf = (ast: SchemaAST.AST) => ast.checks?.at(-1)?.annotations ?? ast.annotations

/** The names of the members of a path-parameters schema that are {@link ResourceIdParam}s. */
export const resourceIdParamNames = (params: Schema.Top | undefined): ReadonlyArray<string> => {
  const ast: SchemaAST.AST | undefined = params?.ast
  if (ast?._tag !== "Objects") return []
  return ast.propertySignatures.flatMap((property) =>
    typeof annotationsOf(property.type)?.[RESOURCE_ANNOTATION] === "string" ? [String(property.name)] : []
  )
}

/** A path segment holding an event's id, the x-webhook-id of its deliveries (`evt_…`); any other shape answers 404 like an unknown event. */
export const EventIdParam = Schema.String.check(
  Schema.isPattern(WEBHOOK_ID_PATTERN, { [RESOURCE_ANNOTATION]: "event", expected: "the id of an event (evt_…)" })
).pipe(
  Schema.decodeTo(ResourceId, SchemaTransformation.transform({ decode: (segment) => eventIdOfWebhookId(segment) ?? 0, encode: webhookIdOf }))
)

/** The resource named by the path parameter a decoding issue is about, if any. */
export const resourceOfIssue = (issue: SchemaIssue.Issue): string | undefined => {
  const pending: Array<SchemaIssue.Issue> = [issue]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    switch (next._tag) {
      case "Filter": {
        const resource = next.filter.annotations?.[RESOURCE_ANNOTATION]
        if (typeof resource === "string") return resource
        pending.push(next.issue)
        break
      }
      case "Composite":
      case "AnyOf":
        pending.push(...next.issues)
        break
      case "Pointer":
      case "Encoding":
        pending.push(next.issue)
        break
      default:
        break
    }
  }
  return undefined
}
