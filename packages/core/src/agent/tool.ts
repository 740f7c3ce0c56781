import { Effect, Schema } from "effect"
import { type ApiFailure, ValidationFailed } from "../domain/errors.js"
import type { Scope } from "../domain/scopes.js"
import { issueToFieldErrors } from "../domain/schema-issues.js"
import type { AgentPrincipal } from "../services/oauth-grants.js"

/** MCP tool annotations (hints for the agent; never trusted by the server). */
export interface AgentToolHints {
  readonly readOnlyHint?: boolean
  readonly destructiveHint?: boolean
  readonly idempotentHint?: boolean
}

/**
 * One tool of the agent endpoint. The endpoint checks `scopes` before `call` runs, so a
 * tool's own code never sees a grant that lacks them; the Store is the principal's.
 */
export interface AgentTool<R = never> {
  readonly name: string
  readonly description: string
  /** Every scope the tool needs. */
  readonly scopes: ReadonlyArray<Scope>
  /** The JSON Schema of its arguments (`inputSchema` of `tools/list`). */
  readonly inputJsonSchema: Readonly<Record<string, unknown>>
  readonly hints: AgentToolHints
  /** Decodes the arguments and runs the tool, for the calling grant. */
  readonly call: (args: unknown, principal: AgentPrincipal) => Effect.Effect<unknown, ApiFailure, R>
}

/** The requirements of every tool in a list. */
export type ToolRequirements<T> = T extends ReadonlyArray<AgentTool<infer R>> ? R : never

/** What {@link defineTool} needs: the tool's input schema and its body, over core services. */
export interface ToolDefinition<S extends Schema.Codec<unknown, unknown, never, never>, R> {
  readonly name: string
  readonly description: string
  readonly scopes: ReadonlyArray<Scope>
  /** An object schema of the arguments; `Schema.Struct({})` for none. */
  readonly input: S
  readonly hints?: AgentToolHints
  readonly run: (input: S["Type"], principal: AgentPrincipal) => Effect.Effect<unknown, ApiFailure, R>
}

/**
 * Defines an agent tool from an Effect Schema of its arguments: the schema gives the
 * advertised JSON Schema and decodes the call's arguments; a decoding fault becomes a
 * `validation_failed` tool result pointing at the offending argument.
 */
export const defineTool = <S extends Schema.Codec<unknown, unknown, never, never>, R>(
  definition: ToolDefinition<S, R>
): AgentTool<R> => {
  const document = Schema.toJsonSchemaDocument(definition.input)
  const inputJsonSchema = Object.keys(document.definitions).length === 0
    ? document.schema
    : { ...document.schema, $defs: document.definitions }
  const decode = Schema.decodeUnknownEffect(definition.input)
  return {
    name: definition.name,
    description: definition.description,
    scopes: definition.scopes,
    inputJsonSchema,
    hints: definition.hints ?? {},
    call: (args, principal) =>
      decode(args ?? {}).pipe(
        Effect.mapError((error) => new ValidationFailed({ errors: issueToFieldErrors(error.issue) })),
        Effect.flatMap((input) => definition.run(input, principal))
      )
  }
}
