import { readFileSync } from "node:fs"
import { HttpApi } from "effect/http-api"
import { agentTools } from "../../packages/core/src/agent/tools/index.js"
import { SigncraftApi } from "../../packages/core/src/http/api/index.js"

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** Every write of the HTTP API definition, as `METHOD /path/{param}`. */
export const apiWriteEndpoints = (): Array<string> => {
  const endpoints: Array<string> = []
  HttpApi.reflect(SigncraftApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      if (WRITE_METHODS.has(endpoint.method)) endpoints.push(`${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`)
    }
  })
  return endpoints
}

/**
 * Every POST route of the authorization server. Its routes are added inside the router layer,
 * not declared in the API definition, so they are read from the module that adds them.
 */
export const oauthWriteEndpoints = (): Array<string> => {
  const source = readFileSync(new URL("../../packages/core/src/http/oauth/routes.ts", import.meta.url), "utf8")
  return [...source.matchAll(/add\("POST", "([^"]+)"/g)].map((match) => `POST ${match[1]}`)
}

/** Every agent tool: each takes arguments a caller controls. */
export const agentToolEndpoints = (): Array<string> => agentTools.map((tool) => `tool ${tool.name}`)
