import { Effect, Schema } from "effect"
import { type ApiFailure, ValidationFailed } from "../domain/errors.js"
import type { Scope } from "../domain/credentials/scopes.js"
import { issueToFieldErrors } from "../domain/input/schema-issues.js"
import type { AgentPrincipal } from "../services/oauth/grants.js"
import { ToolError } from "./tool-result.js"

/**
 * MCP tool annotations (hints for the agent; never trusted by the server). Every tool states
 * all three, so a client never has to fall back on the protocol's pessimistic defaults.
 */
export interface AgentToolHints {
  readonly readOnlyHint: boolean
  readonly destructiveHint: boolean
  readonly idempotentHint: boolean
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
  /**
   * The JSON Schema of its structured content (`outputSchema` of `tools/list`): its output, or
   * the {@link ToolError} of an error result, which carries structured content too.
   */
  readonly outputJsonSchema: Readonly<Record<string, unknown>>
  readonly hints: AgentToolHints
  /** Decodes the arguments and runs the tool, for the calling grant; answers its output as JSON. */
  readonly call: (args: unknown, principal: AgentPrincipal) => Effect.Effect<Readonly<Record<string, unknown>>, ApiFailure, R>
}

/** The requirements of every tool in a list. */
export type ToolRequirements<T> = T extends ReadonlyArray<AgentTool<infer R>> ? R : never

/** A schema without services whose JSON form is an object: a tool's output. */
export type ToolSchema = Schema.Codec<unknown, Readonly<Record<string, unknown>>, never, never>

/** What {@link defineTool} needs: the tool's input and output schemas, its hints and its body, over core services. */
export interface ToolDefinition<S extends Schema.Codec<unknown, unknown, never, never>, O extends ToolSchema, R> {
  readonly name: string
  readonly description: string
  readonly scopes: ReadonlyArray<Scope>
  /** An object schema of the arguments; `Schema.Struct({})` for none. */
  readonly input: S
  /** An object schema of what the tool answers: its structured content and, as JSON, its text. */
  readonly output: O
  readonly hints: AgentToolHints
  readonly run: (input: S["Type"], principal: AgentPrincipal) => Effect.Effect<O["Type"], ApiFailure, R>
}

// A JSON Schema document as MCP carries one: the root schema with its definitions beside it.
const jsonSchemaOf = (schema: Schema.Top): Record<string, unknown> => {
  const document = Schema.toJsonSchemaDocument(schema)
  return Object.keys(document.definitions).length === 0
    ? { ...document.schema }
    : { ...document.schema, $defs: document.definitions }
}

/**
 * Defines an agent tool from Effect Schemas of its arguments and of its output: the input schema
 * gives the advertised JSON Schema and decodes the call's arguments (a fault becomes a
 * `validation_failed` tool result pointing at the offending argument); the output schema gives
 * the advertised `outputSchema` and encodes what the body answers, so nothing undeclared is sent.
 */
export const defineTool = <S extends Schema.Codec<unknown, unknown, never, never>, O extends ToolSchema, R>(
  definition: ToolDefinition<S, O, R>
): AgentTool<R> => {
  const decode = Schema.decodeUnknownEffect(definition.input)
  // Encoded as the v3 API encodes its answers (members the schema does not declare are left
  // out), so a tool answers exactly what the matching operation's `data` holds.
  const encode = Schema.encodeEffect(definition.output)
  // MCP requires an object at the root of `outputSchema`; an error result's content is a ToolError.
  const outputJsonSchema = { ...jsonSchemaOf(Schema.Union([definition.output, ToolError])), type: "object" }
  return {
    name: definition.name,
    description: definition.description,
    scopes: definition.scopes,
    inputJsonSchema: jsonSchemaOf(definition.input),
    outputJsonSchema,
    hints: definition.hints,
    call: (args, principal) =>
      decode(args ?? {}).pipe(
        Effect.mapError((error) => new ValidationFailed({ errors: issueToFieldErrors(error.issue) })),
        Effect.flatMap((input) => definition.run(input, principal)),
        Effect.flatMap((output) => Effect.orDie(encode(output)))
      )
  }
}
