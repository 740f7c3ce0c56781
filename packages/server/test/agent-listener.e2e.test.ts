import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectWithMcpSdk, consentByForms, startReceiver } from "@signcraft/test-kit/agent-clients"
import { freePort, type ServerProcess, startServer, waitForHealthy, within } from "./support/server-process.js"

// `signcraft serve` with MCP_PORT and MCP_URL: the agent endpoint on its own listener.

const dataDir = mkdtempSync(join(tmpdir(), "signcraft-agent-e2e-"))
let server: ServerProcess | undefined

afterAll(() => {
  server?.child.kill("SIGKILL")
  rmSync(dataDir, { recursive: true, force: true })
})

describe("signcraft serve with MCP_PORT and MCP_URL", () => {
  let base = ""
  let mcpUrl = ""

  beforeAll(async () => {
    const port = await freePort()
    const mcpPort = await freePort()
    base = `http://127.0.0.1:${port}`
    mcpUrl = `http://127.0.0.1:${mcpPort}`
    server = startServer(["serve"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: base,
      MCP_PORT: String(mcpPort),
      MCP_URL: mcpUrl,
      DATA_DIR: dataDir,
      SIGNCRAFT_ENV: "development"
    })
    await waitForHealthy(`${base}/healthz`, () => {}, 90_000)
  }, 120_000)

  it("serves the agent endpoint and both metadata documents at MCP_URL's root", async () => {
    const challenge = await fetch(mcpUrl, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
    expect(challenge.status).toBe(401)
    expect(challenge.headers.get("www-authenticate")).toBe(`Bearer resource_metadata="${mcpUrl}/.well-known/oauth-protected-resource"`)
    const prm = await (await fetch(`${mcpUrl}/.well-known/oauth-protected-resource`)).json()
    expect(prm.resource).toBe(mcpUrl)
    expect(prm.authorization_servers).toEqual([base])
    expect((await (await fetch(`${mcpUrl}/.well-known/oauth-authorization-server`)).json()).issuer).toBe(base)
    expect((await fetch(`${base}/mcp`, { method: "POST" })).status).toBe(404)
  })

  it("lets the MCP SDK client connect, with the demo person approving, and call get_store", async () => {
    const line = await (server as ServerProcess).waitForLine(/sign in\s+\S+ \/ \S+/)
    const [, email = "", password = ""] = /sign in\s+(\S+) \/ (\S+)/.exec(line) ?? []
    const receiver = await startReceiver()
    try {
      const client = await connectWithMcpSdk(mcpUrl, receiver.redirectUri, (url) => consentByForms(url, { email, password }))
      const result = await client.callTool({ name: "get_store", arguments: {} })
      expect(result.structuredContent).toMatchObject({ platform: "custom" })
      await client.close()
    } finally {
      await receiver.close()
    }
  })

  it("closes both listeners on SIGTERM and exits 0", async () => {
    const process = server as ServerProcess
    process.child.kill("SIGTERM")
    expect(await within(process.exited, 20_000, "the server's exit")).toBe(0)
    await expect(fetch(mcpUrl)).rejects.toThrow()
  })
})
