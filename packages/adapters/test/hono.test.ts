import { serve } from "@hono/node-server"
import { Hono } from "hono"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { signcraftHono, type WebHandler } from "../src/index.js"
import { closeServer, describeHost, loopbackFetch } from "./support/host-suite.js"

// The host's own routes, then signcraft on every path under `prefix` ("" for all of them).
const startHono = async (handler: WebHandler, prefix = "") => {
  const app = new Hono()
  app.get("/host-route", (c) => c.text("the host's own route"))
  if (prefix !== "") app.get("/api/v3/stores/me", (c) => c.json({ host: true }))
  app.all(`${prefix}/*`, signcraftHono(handler))
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started as Server))
  })
  const port = (server.address() as AddressInfo).port
  return { fetch: loopbackFetch(port), port, close: () => closeServer(server) }
}

describeHost({
  name: "Hono on @hono/node-server",
  start: (handler) => startHono(handler),
  startUnder: startHono,
  client: { headers: {}, expected: "127.0.0.1" },
  listens: true
})
