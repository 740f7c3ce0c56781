import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PROBLEM_CODES } from "../../packages/core/src/presenters/failure-table.js"
import { startApp } from "../support/app.js"
import { embeddedVariant, type TestDatabase } from "../support/databases.js"

describe("documentation pages", () => {
  let db: TestDatabase
  let operatorDb: TestDatabase
  let app: ReturnType<typeof startApp>
  let operator: ReturnType<typeof startApp>

  beforeAll(async () => {
    db = await embeddedVariant.create()
    operatorDb = await embeddedVariant.create()
    // The test app serves the operator API unless told otherwise.
    app = startApp(db.config, { operatorToken: undefined })
    operator = startApp(operatorDb.config)
  })
  afterAll(async () => {
    await app.dispose()
    await operator.dispose()
    await db.cleanup()
    await operatorDb.cleanup()
  })

  it("resolve every problem type to a page with its status, meaning, recovery and an example", async () => {
    for (const code of PROBLEM_CODES) {
      const page = await app.handler(new Request(`http://localhost:8080/docs/problems/${code}`))
      expect(page.status, code).toBe(200)
      expect(page.headers.get("content-type")).toContain("text/html")
      const html = await page.text()
      expect(html).toMatch(/HTTP \d{3}/)
      for (const heading of ["Meaning", "When it happens", "How to recover", "Example"]) expect(html).toContain(heading)
      expect(html, code).toContain(`&quot;code&quot;: &quot;${code}&quot;`)
    }
    const index = await app.handlerText("/docs/problems")
    for (const code of PROBLEM_CODES) expect(index).toContain(`/docs/problems/${code}`)
  })

  it("link a live problem document's type to its page, and answer 404 for an unknown code", async () => {
    const problem = await app.call("GET", "/api/v3/stores/me")
    expect(problem.status).toBe(401)
    const type = new URL(problem.body.type)
    expect(type.pathname).toBe(`/docs/problems/${problem.body.code}`)
    expect((await app.handler(new Request(type))).status).toBe(200)
    expect((await app.handler(new Request("http://localhost:8080/docs/problems/no_such_code"))).status).toBe(404)
  })

  it("serve the operator API's own reference only when the operator API is served", async () => {
    expect((await app.handler(new Request("http://localhost:8080/docs/operator/openapi.json"))).status).toBe(404)
    expect((await app.handler(new Request("http://localhost:8080/docs/operator"))).status).toBe(404)
    const document = JSON.parse(await operator.handlerText("/docs/operator/openapi.json"))
    expect(Object.keys(document.paths).every((path) => path.startsWith("/operator/"))).toBe(true)
    expect(Object.keys(document.paths).length).toBeGreaterThan(5)
    expect((await operator.handler(new Request("http://localhost:8080/docs/operator"))).status).toBe(200)
    const publicDocument = JSON.parse(await app.handlerText("/api/v3/openapi.json"))
    expect(JSON.stringify(publicDocument.paths)).not.toContain("/operator/")
    expect(Object.keys(publicDocument.paths)).toContain("/storefront/v1/customisers/{customiser_id}/designs")
  })
})
