import { Server } from "@modelcontextprotocol/sdk/server/index.js"
import {
  CallToolRequestSchema,
  ErrorCode,
  ListToolsRequestSchema,
  McpError
} from "@modelcontextprotocol/sdk/types.js"
import { Effect } from "effect"
import type { AgentPrincipal } from "../services/oauth/grants.js"
import type { AgentTool } from "./tool.js"
import { failureResult, insufficientScopeResult, toolResult } from "./tool-result.js"

/** Runs a tool's effect with the app's services. */
export type ToolRunner<R> = <A>(effect: Effect.Effect<A, never, R>) => Promise<A>

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
        outputSchema: { ...tool.outputJsonSchema, type: "object" as const },
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
        Effect.match({ onFailure: failureResult, onSuccess: (output) => toolResult(output, false) })
      )
    )
  })
  return server
}
