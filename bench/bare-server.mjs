/**
 * Baseline (b) of `bench/http.ts`, "the same response without the framework": a bare `node:http` server answering a fixed-shape
 * JSON of the same size as `GET /api/v3/stores/me`, built per request, with the same
 * bearer check. `node bench/bare-server.mjs` with PORT set.
 */
import { randomBytes } from "node:crypto"
import { createServer } from "node:http"

const port = Number(process.env.PORT ?? "0")
const base = `http://localhost:${port}`

const server = createServer((request, response) => {
  const requestId = `req_${randomBytes(18).toString("base64url")}`
  if (request.headers.authorization?.startsWith("Bearer ") !== true) {
    response.writeHead(401, { "content-type": "application/problem+json", "x-request-id": requestId })
    response.end(JSON.stringify({ status: 401, code: "unauthenticated", request_id: requestId }))
    return
  }
  const body = JSON.stringify({
    data: {
      object: "store",
      id: 1,
      name: "Bench Store",
      platform: "custom",
      currency: "USD",
      mode: "test",
      scopes: ["store:read"]
    },
    links: { self: `${base}${request.url ?? "/"}`, documentation: `${base}/docs` },
    meta: { api_version: "v3", request_id: requestId }
  })
  response.writeHead(200, { "content-type": "application/json", "x-request-id": requestId })
  response.end(body)
})

server.listen(port, "127.0.0.1", () => {
  process.stdout.write("ready\n")
})

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => server.close(() => process.exit(0)))
}
