import { agentTools } from "../../src/agent/tools/index.js"
import { SigncraftApi } from "../../src/http/api/index.js"
import { oauthRouteTable } from "../../src/http/oauth/routes.js"
import { apiRouteTable } from "../../src/http/route-table.js"

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"])

/** Every write of the HTTP API definition, as `METHOD /path/{param}`. */
export const apiWriteEndpoints = (): Array<string> =>
  apiRouteTable(SigncraftApi)
    .filter((route) => WRITE_METHODS.has(route.method))
    .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, "{$1}")}`)

/** Every POST route of the authorization server, from the table its router layer registers. */
export const oauthWriteEndpoints = (): Array<string> =>
  oauthRouteTable.filter((route) => route.method === "POST").map((route) => `POST ${route.path}`)

/** Every agent tool: each takes arguments a caller controls. */
export const agentToolEndpoints = (): Array<string> => agentTools.map((tool) => `tool ${tool.name}`)
