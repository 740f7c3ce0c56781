import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { createDrainingServer } from "../src/http-listener.js"

describe("the listener", () => {
  it("answers requests accepted before the app's handler was attached, in arrival order", async () => {
    const server = createDrainingServer()
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    try {
      const early = [fetch(`${url}/first`), fetch(`${url}/second`)]
      // Both requests reach the server while it has no handler of its own yet.
      await new Promise((resolve) => setTimeout(resolve, 200))
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
