import { serve } from "@hono/node-server"
import { webhooks } from "@signcraft/core/domain"
import express from "express"
import Fastify from "fastify"
import { Hono } from "hono"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  keepRawJsonBody,
  RawBodyUnavailable,
  receiveFastifyWebhook,
  receiveHonoWebhook,
  receiveNodeWebhook,
  receiveWebWebhook,
  type VerifiedDelivery
} from "../src/index.js"
import { closeServer, listenOnLoopback, loopbackFetch } from "./support/host-suite.js"

const SECRET = "whsec_receiver_test_secret_0123456789"
const STANDARD_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
const BODY = JSON.stringify({ order: { order_id: 5001, total_amount: 27400, products: [{ title: "Open late" }] } })
const options = { secret: [SECRET, STANDARD_SECRET] }

/** A delivery signed under one scheme, as the delivery worker signs it. */
const signed = (scheme: "signcraft" | "standard", body = BODY): Record<string, string> => ({
  "content-type": "application/json",
  "x-webhook-topic": "order:created",
  ...(scheme === "standard"
    ? webhooks.standardSignatureHeaders(STANDARD_SECRET, "evt_9001", body, new Date())
    : { "x-webhook-id": "evt_9001", ...webhooks.signatureHeaders(SECRET, body, new Date()) })
})

// Every route answers the same way: the verified delivery, or the helper's error by name and message.
const outcome = async (receive: () => Promise<VerifiedDelivery> | VerifiedDelivery) => {
  try {
    const delivery = await receive()
    return { status: 200, body: { ok: true, id: delivery.id, topic: delivery.topic, payload: delivery.payload } }
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error))
    return { status: failure instanceof RawBodyUnavailable ? 500 : 401, body: { ok: false, error: failure.name, message: failure.message } }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
type Post = (path: string, headers: Record<string, string>, body: string) => Promise<{ readonly status: number; readonly body: any }>
const poster = (port: number): Post => async (path, headers, body) => {
  const res = await loopbackFetch(port)(path, { method: "POST", headers, body })
  return { status: res.status, body: await res.json() }
}

// The checks every framework passes: a delivery under either scheme verifies on a raw-preserving
// route, a body whose whitespace changed fails, and a route whose JSON parser ran first either
// still verifies (the bytes were kept) or says how to keep them.
const checks = (
  post: () => Post,
  routes: { readonly kept: string; readonly parsedFirst: string; readonly howTo: string | "still verifies" }
) => {
  it("verifies a delivery under either scheme on the raw body, and hands back its id and parsed payload", async () => {
    for (const scheme of ["signcraft", "standard"] as const) {
      const res = await post()(routes.kept, signed(scheme), BODY)
      expect(res).toEqual({ status: 200, body: { ok: true, id: "evt_9001", topic: "order:created", payload: JSON.parse(BODY) } })
    }
  })
  it("refuses a body whose whitespace changed", async () => {
    for (const scheme of ["signcraft", "standard"] as const) {
      const res = await post()(routes.kept, signed(scheme), JSON.stringify(JSON.parse(BODY), null, 2))
      expect(res.status).toBe(401)
      expect(res.body).toMatchObject({ ok: false, error: "WebhookVerificationFailed" })
      expect(res.body.message).toContain("signature_mismatch")
    }
  })
  it(`behind a JSON body parser: ${routes.howTo === "still verifies" ? "still verifies" : "says how to keep the raw body"}`, async () => {
    const res = await post()(routes.parsedFirst, signed("signcraft"), BODY)
    if (routes.howTo === "still verifies") {
      expect(res.status).toBe(200)
      return
    }
    expect(res.status).toBe(500)
    expect(res.body.error).toBe("RawBodyUnavailable")
    expect(res.body.message).toContain(routes.howTo)
  })
}

describe("webhook receiving helpers", () => {
  describe("Express", () => {
    let server: Server
    let post: Post
    beforeAll(async () => {
      const app = express()
      const answer = (res: express.Response, result: Awaited<ReturnType<typeof outcome>>) => void res.status(result.status).json(result.body)
      app.post("/raw", express.raw({ type: "application/json" }), async (req, res) => answer(res, await outcome(() => receiveNodeWebhook(req, options))))
      app.post(
        "/json-kept",
        express.json({ verify: (req, _res, buf) => Object.assign(req, { rawBody: buf }) }),
        async (req, res) => answer(res, await outcome(() => receiveNodeWebhook(req, options)))
      )
      app.post("/json", express.json(), async (req, res) => answer(res, await outcome(() => receiveNodeWebhook(req, options))))
      app.post("/stream", async (req, res) => answer(res, await outcome(() => receiveNodeWebhook(req, options))))
      server = createServer(app)
      post = poster(await listenOnLoopback(server))
    })
    afterAll(() => closeServer(server))

    checks(() => post, { kept: "/raw", parsedFirst: "/json", howTo: "express.raw(" })
    it("still verifies behind express.json() that keeps the bytes, and on an unread stream (node:http)", async () => {
      for (const path of ["/json-kept", "/stream"]) {
        expect((await post(path, signed("standard"), BODY)).status).toBe(200)
      }
    })
  })

  describe("Fastify", () => {
    const app = Fastify()
    let post: Post
    beforeAll(async () => {
      await app.register(async (scope) => {
        keepRawJsonBody(scope)
        scope.post("/kept", async (request, reply) => {
          const result = await outcome(() => receiveFastifyWebhook(request, options))
          // The host's routes still get the parsed JSON.
          return reply.status(result.status).send({ ...result.body, parsed: request.body })
        })
      })
      app.post("/json", async (request, reply) => {
        const result = await outcome(() => receiveFastifyWebhook(request, options))
        return reply.status(result.status).send(result.body)
      })
      await app.listen({ host: "127.0.0.1", port: 0 })
      post = poster((app.server.address() as AddressInfo).port)
    })
    afterAll(() => app.close())

    const withoutParsed: () => Post = () => async (path, headers, body) => {
      const res = await post(path, headers, body)
      const { parsed: _, ...rest } = res.body
      return { status: res.status, body: rest }
    }
    checks(withoutParsed, { kept: "/kept", parsedFirst: "/json", howTo: "keepRawJsonBody(fastify)" })
    it("keeps request.body parsed for the route under keepRawJsonBody", async () => {
      const res = await post("/kept", signed("signcraft"), BODY)
      expect(res.body.parsed).toEqual(JSON.parse(BODY))
    })
  })

  describe("Hono", () => {
    let server: Server
    let post: Post
    beforeAll(async () => {
      const app = new Hono()
      const answer = async (receive: () => Promise<VerifiedDelivery>) => {
        const result = await outcome(receive)
        return Response.json(result.body, { status: result.status })
      }
      app.post("/untouched", (c) => answer(() => receiveHonoWebhook(c, options)))
      app.post("/text-first", async (c) => {
        await c.req.text()
        return answer(() => receiveHonoWebhook(c, options))
      })
      app.post("/raw-read", async (c) => {
        await c.req.raw.text()
        return answer(() => receiveHonoWebhook(c, options))
      })
      app.post("/json-first", async (c) => {
        await c.req.json()
        return answer(() => receiveHonoWebhook(c, options))
      })
      server = await new Promise<Server>((resolve) => {
        const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started as Server))
      })
      post = poster((server.address() as AddressInfo).port)
    })
    afterAll(() => closeServer(server))

    // c.req.json() keeps the body's text in Hono's cache: the helper verifies on it.
    checks(() => post, { kept: "/untouched", parsedFirst: "/json-first", howTo: "still verifies" })
    it("verifies on the bytes Hono kept when the body was read as text first", async () => {
      expect((await post("/text-first", signed("standard"), BODY)).status).toBe(200)
    })
    it("says how to keep the raw body when something read c.req.raw itself", async () => {
      const res = await post("/raw-read", signed("signcraft"), BODY)
      expect(res.status).toBe(500)
      expect(res.body).toMatchObject({ error: "RawBodyUnavailable" })
      expect(res.body.message).toContain("never c.req.raw")
    })
  })

  describe("Next.js route handlers (fetch-style)", () => {
    // A route handler is `(request: Request) => Response`: driven with the Requests Next hands it.
    const untouched = async (request: Request) => Response.json(...responseArgs(await outcome(() => receiveWebWebhook(request, options))))
    const jsonFirst = async (request: Request) => {
      await request.json()
      return Response.json(...responseArgs(await outcome(() => receiveWebWebhook(request, options))))
    }
    const responseArgs = (result: Awaited<ReturnType<typeof outcome>>) => [result.body, { status: result.status }] as const
    const routes: Record<string, (request: Request) => Promise<Response>> = { "/untouched": untouched, "/json-first": jsonFirst }
    const post: Post = async (path, headers, body) => {
      const route = routes[path]
      if (route === undefined) throw new Error(`no route ${path}`)
      const res = await route(new Request(`http://127.0.0.1${path}`, { method: "POST", headers, body }))
      return { status: res.status, body: await res.json() }
    }
    checks(() => post, { kept: "/untouched", parsedFirst: "/json-first", howTo: "Verify before reading the body as JSON" })
  })
})
