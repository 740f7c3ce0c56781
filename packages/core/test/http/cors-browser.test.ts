import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedVariant, type TestDatabase } from "@signcraft/test-kit"
import { browserLeg, CHROMIUM_FLAGS } from "@signcraft/test-kit/chromium"
import { startLoopbackServer } from "@signcraft/test-kit/loopback"

const browser = browserLeg()

// A merchant's page on another origin (another port of 127.0.0.1), as a shopper's browser loads it.
const startShopPage = async (): Promise<{ readonly url: string; readonly server: Server }> => {
  const server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
    response.end("<!doctype html><title>shop</title><p>shop</p>")
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}

describe.skipIf("skip" in browser)("the storefront API from another origin, in a real browser", () => {
  let db: TestDatabase
  let signcraft: Awaited<ReturnType<typeof startLoopbackServer>>
  let shop: Awaited<ReturnType<typeof startShopPage>>

  beforeAll(async () => {
    db = await embeddedVariant.create()
    signcraft = await startLoopbackServer(db.config)
    shop = await startShopPage()
  })
  afterAll(async () => {
    shop.server.closeAllConnections()
    await new Promise<void>((resolve) => shop.server.close(() => resolve()))
    await signcraft.dispose()
    await db.cleanup()
  })

  it("reads storefront answers cross-origin (after a preflight), while v3 stays closed to pages", async () => {
    const { chromium } = await import("playwright-core")
    const profile = mkdtempSync(join(tmpdir(), "signcraft-chromium-"))
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: "executablePath" in browser ? browser.executablePath : "",
      args: [...CHROMIUM_FLAGS],
      headless: true
    })
    try {
      const page = await context.newPage()
      await page.goto(shop.url)
      const outcome = await page.evaluate(async (api) => {
        // JSON bodies are not CORS-safelisted: the browser preflights this POST.
        const storefront = await fetch(`${api}/storefront/v1/customisers/999999/form-submissions`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ responses: [{ field_id: "name", value: "Ada" }] })
        }).then(async (res) => ({ status: res.status, body: await res.json() }), (error: unknown) => ({ error: String(error) }))
        const v3 = await fetch(`${api}/api/v3/stores/me`, { headers: { authorization: "Bearer sk_test_x" } })
          .then((res) => ({ status: res.status }), (error: unknown) => ({ error: String(error) }))
        return { storefront, v3 }
      }, signcraft.url)
      // The page read the answer (a problem document about its made-up form): CORS let it through.
      expect(outcome.storefront).not.toHaveProperty("error")
      expect(outcome.storefront).toMatchObject({ status: 422, body: { code: "validation_failed" } })
      expect(outcome.v3).toHaveProperty("error")
    } finally {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  })
})
