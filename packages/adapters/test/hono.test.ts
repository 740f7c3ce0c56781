import { serve } from "@hono/node-server"
import { Hono } from "hono"
import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { signcraftHono } from "../src/index.js"
import { closeServer, describeHost, loopbackFetch } from "./support/host-suite.js"

describeHost({
  name: "Hono on @hono/node-server",
  start: async (handler) => {
    const app = new Hono()
    app.get("/host-route", (c) => c.text("the host's own route"))
    app.all("/*", signcraftHono(handler))
    const server = await new Promise<Server>((resolve) => {
      const started = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, () => resolve(started as Server))
    })
    const port = (server.address() as AddressInfo).port
    return { fetch: loopbackFetch(port), port, close: () => closeServer(server) }
  },
  client: { headers: {}, expected: "127.0.0.1" },
  listens: true
})
