import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, describe, expect, it } from "vitest"
import { startApp } from "@signcraft/test-kit"

// Every 5xx leaves an error line naming its request id and its cause (docs/operations.md), wherever it
// arose: inside an API middleware, a handler or outside any endpoint.
describe("server errors are logged", () => {
  const lines: Array<Readonly<Record<string, string | number>>> = []
  const app = startApp({ _tag: "Embedded", location: "memory" }, {}, {
    log: (line) => lines.push(line)
  })
  afterAll(() => app.dispose())

  it("a 500 inside the API-key middleware carries a log line with its request id and cause", async () => {
    const { key } = await app.seedStore({ scopes: ["store:read"] })
    // The key check reads api_keys; with the table gone it fails inside the middleware.
    await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`ALTER TABLE api_keys RENAME TO api_keys_hidden`
    }))
    const response = await app.call("GET", "/api/v3/stores/me", { key })
    await app.run(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`ALTER TABLE api_keys_hidden RENAME TO api_keys`
    }))
    expect(response.status).toBe(500)
    expect(response.body.code).toBe("internal_error")
    const requestId = response.headers.get("x-request-id")
    const errors = lines.filter((line) => line.level === "error" && line.request_id === requestId)
    expect(errors).toHaveLength(1)
    expect(String(errors[0]?.message)).toContain("api_keys")
  })
})
