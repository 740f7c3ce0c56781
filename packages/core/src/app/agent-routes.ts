import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"
import { Effect } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { makeMcpServer } from "../agent/mcp-server.js"
import type { AgentTool } from "../agent/tool.js"
import {
  type AgentLocation,
  authorizationServerMetadata,
  protectedResourceMetadata,
  wellKnownPaths
} from "../domain/oauth/metadata.js"
import { OAuthGrants } from "../services/oauth/grants.js"
import { RateLimiter } from "../services/requests/rate-limiter.js"
import { Settings } from "../services/settings.js"
import { publicJson } from "../http/oauth/respond.js"
import { CurrentRequest } from "../http/request-info.js"
import type { RouteEntry } from "../http/route-table.js"
import { findUnacceptableValue } from "../domain/input/json-input.js"
import { jsonRpcErrorBody } from "../http/protocol-errors.js"

const quote = (value: string) => `"${value.replace(/["\\]/g, "\\$&")}"`

/** RFC 6750 / RFC 9728 §5.1: the 401 that points an agent at the protected-resource metadata. */
const challenge = (location: AgentLocation, error?: string) => {
  const params = [
    ...(error === undefined ? [] : [`error="invalid_token"`, `error_description=${quote(error)}`]),
    `resource_metadata=${quote(location.metadataUrl)}`
  ]
  return HttpServerResponse.jsonUnsafe(
    {
      error: error === undefined ? "unauthorized" : "invalid_token",
      error_description: error ?? "This endpoint needs a connector access token; see resource_metadata."
    },
    { status: 401, headers: { "www-authenticate": `Bearer ${params.join(", ")}` } }
  )
}

const limited = (retryAfter: number) =>
  HttpServerResponse.jsonUnsafe(
    { error: "rate_limited", error_description: `Too many requests; retry after ${retryAfter} seconds.`, retry_after: retryAfter },
    { status: 429, headers: { "retry-after": String(retryAfter) } }
  )

const BEARER = /^Bearer[ ]+([^\s]+)[ ]*$/i

const rpcError = (status: number, code: number, message: string, id: unknown, data?: unknown, headers: Record<string, string> = {}) =>
  HttpServerResponse.jsonUnsafe(jsonRpcErrorBody(code, message, id, data), { status, headers })

// A JSON-RPC message's id, when the body is a single request that has one.
const idOf = (body: unknown): unknown =>
  typeof body === "object" && body !== null && "id" in body ? body.id : null

// JSON-RPC 2.0 §5.1: -32700 for unparseable JSON, -32602 for parameters no tool can take.
const readMessage = (text: string) => {
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    return { _tag: "Refused", response: rpcError(400, -32700, "Parse error: the body is not valid JSON.", null) } as const
  }
  const fault = findUnacceptableValue(body)
  return fault === undefined
    ? { _tag: "Read", body } as const
    : {
      _tag: "Refused",
      response: rpcError(400, -32602, `Invalid params: ${fault.pointer} ${fault.detail}`, idOf(body), { errors: [fault] })
    } as const
}

/**
 * The agent endpoint: MCP over Streamable HTTP (stateless, JSON responses), behind the
 * connector token check. API keys and tokens bound to another resource get the 401
 * challenge; each grant has the per-key quota, and its 429 carries `retry_after`.
 */
const mcpEndpoint = <R>(location: AgentLocation, tools: ReadonlyArray<AgentTool<R>>) =>
(request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const settings = yield* Settings
    const limiter = yield* RateLimiter
    const info = yield* CurrentRequest
    const perIp = yield* limiter.admitIp(info.clientIp)
    if (perIp._tag === "Limited") return limited(perIp.retryAfterSeconds)
    const presented = BEARER.exec(request.headers.authorization ?? "")?.[1]
    if (presented === undefined) return challenge(location)
    const principal = yield* (yield* OAuthGrants).authenticate(presented, location.resource).pipe(Effect.result)
    if (principal._tag === "Failure") return challenge(location, principal.failure.description)
    const admission = yield* limiter.take(`agent:${principal.success.grantId}`, settings.rateLimitPerKeyPerMinute, 60)
    if (admission._tag === "Limited") return limited(admission.retryAfterSeconds)

    // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
    if (request.method !== "POST") {
      return rpcError(405, -32000, "Method not allowed: this endpoint is stateless; POST JSON-RPC messages.", null, undefined, {
        allow: "POST, OPTIONS"
      })
    }
    // The body is read here, under the service's body limit (the SDK would read up to its
    // own 4 MiB), and checked for values no tool input can take before any tool sees it.
    const message = readMessage(yield* request.text)
    if (message._tag === "Refused") return message.response
    const context = yield* Effect.context<R>()
    const server = makeMcpServer(tools, principal.success, (effect) => Effect.runPromiseWith(context)(effect))
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true })
    const web = yield* HttpServerRequest.toWeb(request)
    const response = yield* Effect.promise(async () => {
      await server.connect(transport)
      try {
        return await transport.handleRequest(web, { parsedBody: message.body })
      } finally {
        await server.close()
      }
    })
    return HttpServerResponse.fromWeb(response)
  })

// The well-known paths this origin serves: on the base URL the bare authorization-server
// path is already served by the authorization server's routes, so it is left out there.
const metadataPaths = (location: AgentLocation) => {
  const paths = wellKnownPaths(location)
  return {
    protectedResource: paths.protectedResource,
    authorizationServer: location.separateOrigin
      ? paths.authorizationServer
      : paths.authorizationServer.filter((path) => path !== "/.well-known/oauth-authorization-server")
  }
}

/** The agent origin's routes (method and path), for 405 answers. */
export const agentRouteTable = (location: AgentLocation): ReadonlyArray<RouteEntry> => {
  const paths = metadataPaths(location)
  return [
    { method: "*", path: location.path },
    ...[...paths.protectedResource, ...paths.authorizationServer].map((path) => ({ method: "GET", path }))
  ]
}

/**
 * The routes of the origin that serves the agent endpoint: the endpoint at its path, and
 * both metadata documents at their well-known paths (with the endpoint's path appended
 * too, when it has one).
 */
export const layerAgentRoutes = <R>(location: AgentLocation, tools: ReadonlyArray<AgentTool<R>>) =>
  HttpRouter.use((router) =>
    Effect.gen(function*() {
      // Resolved once, from the app being built (see layerOAuthRoutes).
      const context = yield* Effect.context<OAuthGrants | RateLimiter | Settings | R>()
      const settings = yield* Settings
      const paths = metadataPaths(location)
      const endpoint = mcpEndpoint(location, tools)
      yield* router.add("*", location.path, (request) => Effect.provideContext(endpoint(request), context))
      for (const path of paths.protectedResource) {
        yield* router.add("GET", path, publicJson(protectedResourceMetadata(settings.baseUrl, location)))
      }
      for (const path of paths.authorizationServer) {
        yield* router.add("GET", path, publicJson(authorizationServerMetadata(settings.baseUrl, { issParameter: settings.oauthIssParameter })))
      }
    })
  )
