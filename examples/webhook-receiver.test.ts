import { webhooks } from "@signcraft/core/domain"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createWebhookReceiver, type VerifiedEvent } from "./webhook-receiver.js"

const secret = "whsec_example_secret"
const events: Array<VerifiedEvent> = []
const server = createWebhookReceiver({ secret, onEvent: (event) => void events.push(event) })
let url = ""

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const deliver = (body: string, headers: Record<string, string>) =>
  fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body })

describe("example webhook receiver", () => {
  it("accepts a signed delivery once per x-webhook-id and answers per topic", async () => {
    const body = JSON.stringify({ product: { product_id: 1, title: "Open Late" } })
    const headers = { ...webhooks.signatureHeaders(secret, body, new Date()), "x-webhook-id": "evt_1", "x-webhook-topic": "product:created" }
    const first = await deliver(body, headers)
    expect(first.status).toBe(200)
    expect(await first.json()).toEqual({ external_id: "ext_evt_1" })
    const retry = await deliver(body, headers)
    expect(retry.status).toBe(200)
    expect(events).toEqual([{ id: "evt_1", topic: "product:created", body: JSON.parse(body) }])

    const order = JSON.stringify({ order: { order_id: 2 } })
    const answered = await deliver(order, {
      ...webhooks.signatureHeaders(secret, order, new Date()),
      "x-webhook-id": "evt_2",
      "x-webhook-topic": "order:created"
    })
    expect(await answered.json()).toEqual({ ok: true })
  })

  it("refuses forged, tampered, unsigned and stale deliveries", async () => {
    const body = JSON.stringify({ order: { order_id: 3 } })
    const base = { "x-webhook-id": "evt_3", "x-webhook-topic": "order:created" }
    const forged = await deliver(body, { ...webhooks.signatureHeaders("whsec_wrong", body, new Date()), ...base })
    expect(forged.status).toBe(401)
    expect(await forged.json()).toEqual({ error: "signature_mismatch" })
    const tampered = await deliver(body.replace("3", "4"), { ...webhooks.signatureHeaders(secret, body, new Date()), ...base })
    expect(tampered.status).toBe(401)
    expect((await deliver(body, base)).status).toBe(401)
    const stale = await deliver(body, { ...webhooks.signatureHeaders(secret, body, new Date(Date.now() - 301_000)), ...base })
    expect(await stale.json()).toEqual({ error: "timestamp_out_of_tolerance" })
    expect(events.map((e) => e.id)).not.toContain("evt_3")
  })
})
