import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  type CallToolResult,
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError
} from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import type { ApiFailure } from "../domain/errors.js"
import { describeFailure } from "../presenters/failure-table.js"
import type { AgentPrincipal } from "../services/oauth-grants.js"
import type { AgentTool } from "./tool.js"

/** Runs a tool's effect with the app's services. */
export type ToolRunner<R> = <A>(effect: Effect.Effect<A, never, R>) => Promise<A>

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const result = (value: Record<string, unknown>, isError: boolean): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(value) }],
  structuredContent: value,
  ...(isError ? { isError: true } : {})
})

/**
 * The tool result of a call whose grant lacks a scope (service spec, "Connector
 * authorization" 10): a result the agent can read, not a protocol error.
 */
export const insufficientScopeResult = (required: ReadonlyArray<string>, granted: ReadonlyArray<string>) =>
  result({
    error: "insufficient_scope",
    error_description: `This tool needs the scope ${required.join(", ")}, which this connection was not granted.`,
    required_scopes: [...required],
    granted_scopes: [...granted]
  }, true)

const failureResult = (failure: ApiFailure): CallToolResult => {
  const d = describeFailure(failure)
  return result({
    error: d.code,
    error_description: d.detail,
    ...(d.errors === undefined ? {} : { errors: d.errors }),
    ...(d.retryAfter === undefined ? {} : { retry_after: d.retryAfter }),
    ...(d.requiredScopes === undefined ? {} : { required_scopes: d.requiredScopes }),
    ...(d.grantedScopes === undefined ? {} : { granted_scopes: d.grantedScopes })
  }, true)
}

const successResult = (value: unknown): CallToolResult =>
  isRecord(value)
    ? result(value, false)
    : { content: [{ type: "text", text: JSON.stringify(value) }] }

/**
 * An MCP server for one request of one grant: it lists every tool, and before running a
 * tool checks that the grant holds each scope the tool needs.
 */
export const makeMcpServer = <R>(
  tools: ReadonlyArray<AgentTool<R>>,
  principal: AgentPrincipal,
  run: ToolRunner<R>
): Server => {
  const server = new Server(
    { name: "signcraft", version: "0.1.0" },
    {
      capabilities: { tools: {} },
      instructions: "Tools act on the one Store this connection was approved for. Start with get_store."
    }
  )
  server.setRequestHandler(ListToolsRequestSchema, () =>
    Promise.resolve({
      tools: tools.map((tool) => ({
        name: tool.name,
        description: `${tool.description} Needs: ${tool.scopes.join(", ")}.`,
        inputSchema: { ...tool.inputJsonSchema, type: "object" as const },
        annotations: tool.hints
      }))
    }))
  server.setRequestHandler(CallToolRequestSchema, (request) => {
    const tool = tools.find((candidate) => candidate.name === request.params.name)
    if (tool === undefined) {
      return Promise.reject(new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`))
    }
    if (tool.scopes.some((scope) => !principal.scopes.includes(scope))) {
      return Promise.resolve(insufficientScopeResult(tool.scopes, principal.scopes))
    }
    return run(
      tool.call(request.params.arguments, principal).pipe(
        Effect.match({ onFailure: failureResult, onSuccess: successResult })
      )
    )
  })
  return server
}
