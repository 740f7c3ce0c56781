import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type Receiver, startReceiver } from "@signcraft/test-kit/receiver"
import { verifyWebhook } from "../../core/src/domain/webhooks/signature.js"
import { freePort, type ServerProcess, startServer, waitForHealthy, within } from "./support/server-process.js"

// Pending deliveries are rows: a server killed with SIGKILL while a receiver is down delivers
// them after a restart, once the receiver is back.

const OPERATOR_TOKEN = `op_${Math.random().toString(36).slice(2)}`
const dataDir = mkdtempSync(join(tmpdir(), "signcraft-webhooks-e2e-"))
const processes: Array<ServerProcess> = []
let receiver: Receiver | undefined

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
const call = async (base: string, method: string, path: string, token?: string, body?: unknown): Promise<{ status: number; body: any }> => {
  const headers: Record<string, string> = {}
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  if (body !== undefined) headers["content-type"] = "application/json"
  const response = await fetch(base + path, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
  const text = await response.text()
  return { status: response.status, body: text === "" ? {} : JSON.parse(text) }
}

const start = async (port: number) => {
  const server = startServer([], {
    PORT: String(port),
    DATA_DIR: dataDir,
    OPERATOR_TOKEN,
    SIGNCRAFT_ENV: "test",
    WEBHOOK_RETRY_BASE_MS: "200"
  })
  processes.push(server)
  await waitForHealthy(`http://127.0.0.1:${port}/healthz`, () => {}, 90_000)
  return server
}

afterAll(async () => {
  for (const server of processes) {
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGKILL")
    await within(server.exited, 10_000, "server exit").catch(() => {})
  }
  await receiver?.close()
  rmSync(dataDir, { recursive: true, force: true })
})

describe("webhook deliveries across a crash", () => {
  it("delivers after restart what was pending when the server was killed", async () => {
    const port = await freePort()
    const receiverPort = await freePort()
    const base = `http://127.0.0.1:${port}`
    const first = await start(port)

    const company = await call(base, "POST", "/operator/v1/companies", OPERATOR_TOKEN, { name: "Crash Co" })
    const store = await call(base, "POST", "/operator/v1/stores", OPERATOR_TOKEN, { company_id: company.body.id, name: "Crash Shop" })
    const key = await call(base, "POST", `/operator/v1/stores/${store.body.id}/api-keys`, OPERATOR_TOKEN, {
      mode: "test",
      scopes: ["webhooks:read", "webhooks:write"]
    })
    const customiser = await call(base, "POST", `/operator/v1/stores/${store.body.id}/customisers`, OPERATOR_TOKEN, {
      name: "Quote form",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    expect(customiser.status).toBe(201)
    // The receiver is down: nothing listens on its port yet.
    const subscription = await call(base, "POST", "/api/v3/webhook-subscriptions", key.body.key, {
      topic: "form:submitted",
      url: `http://127.0.0.1:${receiverPort}/hook`
    })
    expect(subscription.status).toBe(201)
    const submitted = await call(base, "POST", `/storefront/v1/customisers/${customiser.body.id}/form-submissions`, undefined, {
      responses: [{ field_id: "email", name: "Email", input_type: "EMAIL", value: "crash@example.com" }]
    })
    expect(submitted.status).toBe(201)

    // Wait for a failed attempt, so the delivery is pending with a retry scheduled.
    const logPath = `/api/v3/webhook-subscriptions/${subscription.body.data.id}/deliveries`
    const deadline = Date.now() + 30_000
    let pending: { webhook_id: string; status: string; attempt_count: number } | undefined
    while (pending === undefined || pending.attempt_count < 1) {
      pending = (await call(base, "GET", logPath, key.body.key)).body.data[0]
      if (Date.now() > deadline) throw new Error("no failed attempt recorded")
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    expect(pending.status).toBe("pending")

    first.child.kill("SIGKILL")
    expect(await within(first.exited, 10_000, "SIGKILL")).toBe("SIGKILL")

    receiver = await startReceiver(() => 200, receiverPort)
    await start(port)
    await receiver.waitFor((received) => received.length >= 1, 60_000)
    const [delivery] = receiver.received
    if (delivery === undefined) throw new Error("nothing delivered")
    expect(delivery.headers["x-webhook-id"]).toBe(pending.webhook_id)
    expect(verifyWebhook({ rawBody: delivery.rawBody, headers: delivery.headers, secret: subscription.body.data.secret })).toEqual({ ok: true })
    expect(JSON.parse(delivery.rawBody.toString("utf8")).form_submission.responses[0].value).toBe("crash@example.com")

    const deadline2 = Date.now() + 10_000
    for (;;) {
      const after = (await call(base, "GET", logPath, key.body.key)).body.data[0]
      if (after.status === "delivered") {
        expect(after.attempts.at(-1).response_status).toBe(200)
        break
      }
      if (Date.now() > deadline2) throw new Error(`not marked delivered: ${JSON.stringify(after)}`)
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }, 180_000)
})
