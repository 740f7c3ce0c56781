import { afterAll, describe, expect, it } from "vitest"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { simpleLetterContent } from "@signcraft/test-kit/pricing-fixtures"
import { freePort, type ServerProcess, startServer, waitForHealthy, within } from "./support/server-process.js"

// SIGKILL the server while idempotent pricing writes are in flight, start it again on the same
// data, and retry every write with its key and body: each resolves at once (it replays the
// committed answer or runs), none waits out the claim's lease with 409 idempotency_key_in_flight.

const OPERATOR_TOKEN = `op_${Math.random().toString(36).slice(2)}_crash_test_token`
const KEYS = 60
const CONCURRENCY = 6

const DOCUMENT = simpleLetterContent()

describe.each(databaseVariants())("a crash under idempotent load ($name database)", (variant) => {
  let db: TestDatabase | undefined
  const servers: Array<ServerProcess> = []

  afterAll(async () => {
    for (const server of servers) server.child.kill("SIGKILL")
    await Promise.all(servers.map((server) => within(server.exited, 20_000, "the server's exit")))
    await db?.cleanup()
  })

  const start = async (env: Record<string, string>) => {
    const port = await freePort()
    const server = startServer([], { ...env, PORT: String(port), OPERATOR_TOKEN, SIGNCRAFT_ENV: "test" })
    servers.push(server)
    const base = `http://127.0.0.1:${port}`
    await waitForHealthy(`${base}/healthz`, () => {}, 90_000)
    return { server, base }
  }

  const json = async (base: string, method: string, path: string, token: string, body?: unknown, key?: string) => {
    const response = await fetch(base + path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...(key === undefined ? {} : { "idempotency-key": key })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: (text === "" ? {} : JSON.parse(text)) as Record<string, unknown> }
  }

  it("resolves every retried key at once after a restart", async () => {
    db = await variant.create()
    const env: Record<string, string> = db.config._tag === "Postgres"
      ? { DATABASE_URL: db.config.url }
      : { DATA_DIR: db.config.location === "memory" ? "" : db.config.location.dataDir }
    const first = await start(env)
    const company = await json(first.base, "POST", "/operator/v1/companies", OPERATOR_TOKEN, { name: "Crash" })
    const store = await json(first.base, "POST", "/operator/v1/stores", OPERATOR_TOKEN, { company_id: company.body.id, name: "Crash" })
    const apiKey = await json(first.base, "POST", `/operator/v1/stores/${store.body.id}/api-keys`, OPERATOR_TOKEN, {
      mode: "test",
      scopes: ["pricing:read", "pricing:write"]
    })
    const customiser = await json(first.base, "POST", `/operator/v1/stores/${store.body.id}/customisers`, OPERATOR_TOKEN, {
      name: "Neon letters",
      product_family: "neon",
      selection_mode: "single_style",
      pricing_model: "simple_letter"
    })
    expect(customiser.status).toBe(201)
    const path = `/api/v3/customisers/${customiser.body.id}/pricing`
    const key = apiKey.body.key as string

    // Writers send their keys in turn; the server is killed once a third of them have answered.
    let next = 0
    let answered = 0
    let cut = 0
    let killed: (() => void) | undefined
    const killedAt = new Promise<void>((resolve) => {
      killed = resolve
    })
    const writer = async () => {
      while (next < KEYS) {
        const index = next++
        try {
          await json(first.base, "PUT", path, key, DOCUMENT, `crash-${index}`)
          answered += 1
          if (answered === Math.floor(KEYS / 3)) killed?.()
        } catch {
          // Cut by the kill: retried below.
          cut += 1
        }
      }
    }
    const writers = Promise.all(Array.from({ length: CONCURRENCY }, writer))
    await killedAt
    first.server.child.kill("SIGKILL")
    await writers
    await within(first.server.exited, 20_000, "the killed server's exit")
    // Some writes were in flight when the process died: that is the case under test.
    expect(cut).toBeGreaterThan(0)

    const second = await start(env)
    const retried = []
    for (let index = 0; index < KEYS; index++) {
      retried.push(await json(second.base, "PUT", path, key, DOCUMENT, `crash-${index}`))
    }
    expect(retried.filter((answer) => answer.status !== 200).map((answer) => answer.body.code)).toEqual([])
  }, 300_000)
})
