import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js"
import { Schema } from "effect"
import type { ApiFailure } from "../domain/errors.js"
import { FieldErrorSchema } from "../domain/input/field-error.js"
import { describeFailure } from "../presenters/failure-table.js"

/**
 * The structured content of a tool's error result: the failure's code and wording from the
 * failure table, as the problem document of the same failure carries them.
 */
export const ToolError = Schema.Struct({
  error: Schema.String,
  error_description: Schema.String,
  errors: Schema.optionalKey(Schema.Array(FieldErrorSchema)),
  retry_after: Schema.optionalKey(Schema.Int),
  required_scopes: Schema.optionalKey(Schema.Array(Schema.String)),
  granted_scopes: Schema.optionalKey(Schema.Array(Schema.String))
}).annotate({ identifier: "ToolError" })

/** A tool error result's structured content. */
export type ToolError = typeof ToolError.Type

/** A tool result whose text content is the same JSON as its structured content. */
export const toolResult = (value: Readonly<Record<string, unknown>>, isError: boolean): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: { ...value },
  ...(isError ? { isError: true } : {})
})

/**
 * The tool result of a call whose grant lacks a scope (docs/agent.md, incremental consent): a
 * result the agent can read, not a protocol error. It names the scopes the tool needs and those
 * the connection holds, so the client can ask for the union.
 */
export const insufficientScopeResult = (required: ReadonlyArray<string>, granted: ReadonlyArray<string>): CallToolResult => {
  const error: ToolError = {
    error: "insufficient_scope",
    error_description: `This tool needs the scope ${required.join(", ")}, which this connection was not granted.`,
    required_scopes: [...required],
    granted_scopes: [...granted]
  }
  return toolResult(error, true)
}

/** The tool result of a failure, worded by the failure table. */
export const failureResult = (failure: ApiFailure): CallToolResult => {
  const d = describeFailure(failure)
  const error: ToolError = {
    error: d.code,
    error_description: d.detail,
    ...(d.errors === undefined ? {} : { errors: d.errors }),
    ...(d.retryAfter === undefined ? {} : { retry_after: d.retryAfter }),
    ...(d.requiredScopes === undefined ? {} : { required_scopes: d.requiredScopes }),
    ...(d.grantedScopes === undefined ? {} : { granted_scopes: d.grantedScopes })
  }
  return toolResult(error, true)
}
