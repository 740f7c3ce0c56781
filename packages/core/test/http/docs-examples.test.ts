import { execFile } from "node:child_process"
import { readFileSync } from "node:fs"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createCustomiser, databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { startIntegrator } from "@signcraft/test-kit/integrator"
import { startLoopbackServer } from "@signcraft/test-kit/loopback"

const run = promisify(execFile)

// docs/examples.md names each runnable block with an HTML comment just above it.
const exampleBlock = (name: string): string => {
  const text = readFileSync(new URL("../../../../docs/examples.md", import.meta.url), "utf8")
  const match = new RegExp(`<!-- example: ${name} -->\\n\`\`\`sh\\n([\\s\\S]*?)^\`\`\`$`, "m").exec(text)
  if (match?.[1] === undefined) throw new Error(`docs/examples.md has no block named ${name}`)
  return match[1]
}

// Runs a block as written, its variables given in the environment as a reader's shell would
// hold them; `curl` also prints the status on a last line of its own.
const runExample = async (name: string, variables: Readonly<Record<string, string>>) => {
  const script = `curl() { command curl --write-out '\\n%{http_code}' "$@"; }\n${exampleBlock(name)}`
  const { stdout } = await run("sh", ["-c", script], { env: { PATH: process.env.PATH ?? "", ...variables } })
  const newline = stdout.lastIndexOf("\n")
  return { status: Number(stdout.slice(newline + 1)), body: JSON.parse(stdout.slice(0, newline)) as Record<string, unknown> }
}

describe.each(databaseVariants())("docs/examples.md against a real server ($name database)", (variant) => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof startLoopbackServer>>
  let integrator: Awaited<ReturnType<typeof startIntegrator>>
  let api: Record<string, string>

  beforeAll(async () => {
    db = await variant.create()
    server = await startLoopbackServer(db.config)
    integrator = await startIntegrator()
    const { storeId, key } = await server.seedStore({ scopes: ["products:write", "orders:write"] })
    const customiser = await createCustomiser(server, storeId)
    const integration = await server.operator("POST", `/stores/${storeId}/integrations`, { create_product_url: integrator.url })
    integrator.useSecret(String(integration.body.signing_secret))
    api = { BASE_URL: server.url, KEY: key, CUSTOMISER: String(customiser.id), INTEGRATION: String(integration.body.id) }
  })
  afterAll(async () => {
    await integrator.close()
    await server.dispose()
    await db.cleanup()
  })

  it("creates a product, then an order of it", async () => {
    const product = await runExample("create-product", api)
    expect(product.status).toBe(201)
    const data = product.body.data as { readonly object: string; readonly id: number }
    expect(data.object).toBe("product")

    const order = await runExample("create-order", { ...api, PRODUCT: String(data.id) })
    expect(order.status).toBe(201)
    expect(order.body.data).toMatchObject({ object: "order", store_order_id: "gid://shop/Order/5531" })
  })

  it("registers an OAuth client, and the token endpoint refuses a code it never issued", async () => {
    const redirect = { BASE_URL: server.url, REDIRECT_URI: "http://127.0.0.1:8976/callback" }
    const registered = await runExample("oauth-register", redirect)
    expect(registered.status).toBe(201)
    expect(registered.body.redirect_uris).toEqual(["http://127.0.0.1:8976/callback"])
    const clientId = registered.body.client_id
    expect(typeof clientId).toBe("string")

    const token = await runExample("oauth-token", {
      ...redirect,
      CLIENT_ID: String(clientId),
      CODE: "a-code-this-server-never-issued",
      VERIFIER: "a".repeat(64)
    })
    expect(token.status).toBe(400)
    expect(token.body.error).toBe("invalid_grant")
  })
})
