import { Agent, request } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import type { FastReadsSlot } from "@signcraft/core/internal"
import { createDrainingServer } from "../src/http-listener.js"

describe("the listener", () => {
  it("answers requests accepted before the app's handler was attached, in arrival order", async () => {
    const server = createDrainingServer()
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      // Counts the requests the server has parsed, without a listener of its own (adding one is
      // what attaches the app): the test goes on only once both are held, never after a guess.
      let arrived = 0
      let bothArrived: () => void = () => {}
      const held = new Promise<void>((resolve) => {
        bothArrived = resolve
      })
      const emit = server.emit
      server.emit = (event: string | symbol, ...args: Array<unknown>) => {
        const handled = Boolean(Reflect.apply(emit, server, [event, ...args]))
        if (event === "request" && ++arrived === 2) bothArrived()
        return handled
      }
      const early = [fetch(`${url}/first`), fetch(`${url}/second`)]
      await held
      const seen: Array<string | undefined> = []
      server.on("request", (request, response) => {
        seen.push(request.url)
        response.end(request.url)
      })
      const answers = await Promise.all(early.map(async (pending) => (await pending).text()))
      expect(answers).toEqual(["/first", "/second"])
      expect(seen).toEqual(["/first", "/second"])
      // Later requests go straight to the handler.
      expect(await (await fetch(`${url}/third`)).text()).toBe("/third")
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})

describe("the listener's fast reads", () => {
  it("writes what the fast reads answer, and hands everything else to the app's handler", async () => {
    const slot: FastReadsSlot = { answer: undefined }
    const server = createDrainingServer(slot)
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const offered: Array<string> = []
    slot.answer = (method, path, headers, peer) => {
      offered.push(`${method} ${path} ${peer}`)
      return path === "/fast" && headers["x-probe"] === "yes"
        ? { status: 203, headers: ["content-type", "application/json", "x-answered", "fast", "content-length", "13"], body: '{"fast":true}' }
        : undefined
    }
    const handled: Array<string | undefined> = []
    server.on("request", (request, response) => {
      handled.push(request.url)
      response.end("full")
    })
    try {
      const fast = await fetch(`${url}/fast`, { headers: { "x-probe": "yes" } })
      expect(fast.status).toBe(203)
      expect(fast.headers.get("x-answered")).toBe("fast")
      expect(fast.headers.get("content-length")).toBe("13")
      expect(await fast.json()).toEqual({ fast: true })
      expect(await (await fetch(`${url}/fast`)).text()).toBe("full")
      expect(await (await fetch(`${url}/other`)).text()).toBe("full")
      expect(handled).toEqual(["/fast", "/other"])
      expect(offered).toEqual(["GET /fast 127.0.0.1", "GET /fast 127.0.0.1", "GET /other 127.0.0.1"])
      handled.length = 0
      // A GET that carries a body is answered fast, and its connection serves the next request.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 })
      const viaAgent = (path: string, body?: string) =>
        new Promise<string>((resolve, reject) => {
          const sent = request(`${url}${path}`, { agent, method: "GET", headers: { "x-probe": "yes", "content-length": String(body?.length ?? 0) } }, (answer) => {
            let text = ""
            answer.setEncoding("utf8").on("data", (chunk: string) => {
              text += chunk
            }).on("end", () => resolve(text))
          })
          sent.on("error", reject)
          sent.end(body)
        })
      expect(await viaAgent("/fast", "a body no GET needs")).toBe('{"fast":true}')
      expect(await viaAgent("/other")).toBe("full")
      agent.destroy()
      expect(handled).toEqual(["/other"])
      // Without fast reads (before the app is built, after it closes), all goes the full way.
      slot.answer = undefined
      expect(await (await fetch(`${url}/fast`, { headers: { "x-probe": "yes" } })).text()).toBe("full")
    } finally {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    }
  })
})
