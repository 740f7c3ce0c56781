import express from "express"
import { createServer } from "node:http"
import { describe, expect, it } from "vitest"
import { toNodeListener, type WebHandler } from "../src/index.js"
import { makeEcho } from "./support/echo.js"
import { closeServer, describeHost, listenOnLoopback, loopbackFetch } from "./support/host-suite.js"

const startExpress = async (handler: WebHandler, mount: (app: express.Express) => void = (app) => app.use(toNodeListener(handler))) => {
  const app = express()
  app.get("/host-route", (_req, res) => {
    res.send("the host's own route")
  })
  mount(app)
  const server = createServer(app)
  const port = await listenOnLoopback(server)
  return { fetch: loopbackFetch(port), port, close: () => closeServer(server) }
}

describeHost({
  name: "Express",
  start: (handler) => startExpress(handler),
  startUnder: (handler, prefix) =>
    startExpress(handler, (app) => {
      app.get("/api/v3/stores/me", (_req, res) => {
        res.json({ host: true })
      })
      app.use(prefix, toNodeListener(handler))
    }),
  client: { headers: {}, expected: "127.0.0.1" },
  listens: true
})

describe("Express: mounting", () => {
  it("shows signcraft the full original URL under a prefix, and leaves the host's routes alone", async () => {
    const echo = makeEcho()
    const host = await startExpress(echo.handler, (app) => app.use("/signs", toNodeListener(echo.handler)))
    try {
      expect((await host.fetch("/signs/api/v3/stores/me?x=1")).headers.get("x-echo-url")).toBe("/signs/api/v3/stores/me?x=1")
      expect(await (await host.fetch("/host-route")).text()).toBe("the host's own route")
    } finally {
      await host.close()
    }
  })

  it("takes the client's address from req.ip, so `trust proxy` decides", async () => {
    const echo = makeEcho()
    const host = await startExpress(echo.handler, (app) => {
      app.set("trust proxy", "loopback")
      app.use(toNodeListener(echo.handler))
    })
    try {
      const res = await host.fetch("/who", { headers: { "x-forwarded-for": "203.0.113.9" } })
      expect(res.headers.get("x-echo-client")).toBe("203.0.113.9")
    } finally {
      await host.close()
    }
  })

  it("refuses a body an earlier parser already consumed instead of passing an empty one", async () => {
    const echo = makeEcho()
    const host = await startExpress(echo.handler, (app) => {
      app.use(express.json())
      app.use(toNodeListener(echo.handler))
    })
    try {
      const res = await host.fetch("/bytes", { method: "POST", headers: { "content-type": "application/json" }, body: "{\"a\":1}" })
      expect(res.status).toBe(500)
      expect(res.headers.get("x-echo-method")).toBeNull()
    } finally {
      await host.close()
    }
  })
})
