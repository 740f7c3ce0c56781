import { readFileSync, mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, OPERATOR_TOKEN, type TestDatabase } from "@signcraft/test-kit"
import { browserLeg, CHROMIUM_FLAGS } from "@signcraft/test-kit/chromium"
import { seedDashboardWorld } from "@signcraft/test-kit/dashboard-world"
import { startLoopbackServer } from "@signcraft/test-kit/loopback"
import { type Receiver, startReceiver } from "@signcraft/test-kit/receiver"

const browser = browserLeg()
const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8")

type Violation = { readonly id: string; readonly impact: string | null; readonly nodes: ReadonlyArray<{ readonly target: ReadonlyArray<string> }> }

describe.skipIf("skip" in browser).each(databaseVariants())("the merchant dashboard in real Chromium ($name database)", (variant) => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof startLoopbackServer>>
  let receiver: Receiver
  let world: Awaited<ReturnType<typeof seedDashboardWorld>>
  let context: BrowserContext
  let profile: string
  const foreign: Array<string> = []

  beforeAll(async () => {
    db = await variant.create()
    // The first attempt of every event fails; only a resend from the dashboard gets it through,
    // since the scheduled retry is an hour away.
    receiver = await startReceiver((_, previous) => (previous === 0 ? 500 : 200))
    server = await startLoopbackServer(db.config, { webhookRetryBaseMs: 3_600_000 }, { deliveryWorker: { pollIntervalMs: 20 } })
    world = await seedDashboardWorld(server, receiver)
    await receiver.waitFor((received) => received.length === 1)
    const { chromium } = await import("playwright-core")
    profile = mkdtempSync(join(tmpdir(), "signcraft-dashboard-"))
    context = await chromium.launchPersistentContext(profile, {
      executablePath: "executablePath" in browser ? browser.executablePath : "",
      args: [...CHROMIUM_FLAGS],
      headless: true,
      viewport: { width: 1440, height: 900 }
    })
    // Every request leaves through here: anything not for this server is recorded and refused.
    await context.route("**/*", (route) => {
      const url = route.request().url()
      if (url.startsWith(server.url)) return route.continue()
      foreign.push(url)
      return route.abort()
    })
  })
  afterAll(async () => {
    await context?.close()
    if (profile !== undefined) rmSync(profile, { recursive: true, force: true })
    await server?.dispose()
    await receiver?.close()
    await db?.cleanup()
  })

  const watchPolicy = async (page: Page) => {
    await page.addInitScript(() => {
      const seen: Array<string> = []
      Object.assign(window, { cspViolations: seen })
      document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
    })
  }
  // axe-core runs in the page through the debugging protocol, which the page's policy does not govern.
  const accessibilityFaults = async (page: Page) => {
    await page.evaluate(axeSource)
    const violations = await page.evaluate(async () => {
      const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: ReadonlyArray<Violation> }> } }).axe
      return (await axe.run(document)).violations
    })
    return violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)
  }
  // What a page looks like at a phone's width and a desktop's: no sideways scrolling, no serious
  // accessibility fault, nothing the policy blocked.
  const checkPage = async (page: Page) => {
    expect(await accessibilityFaults(page), page.url()).toEqual([])
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: 900 })
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
      expect(overflow, `${page.url()} at ${width} px`).toBeLessThanOrEqual(0)
    }
    await page.setViewportSize({ width: 1440, height: 900 })
    expect(await page.evaluate(() => (window as unknown as { cspViolations: Array<string> }).cspViolations), page.url()).toEqual([])
  }
  const section = (page: Page, name: string) => page.getByRole("navigation", { name: "Northwind Signs" }).getByRole("link", { name })

  it("signs in by keyboard, then creates a key, uses it and revokes it, with JavaScript off", async () => {
    const { chromium } = await import("playwright-core")
    const noScript = await chromium.launch({ executablePath: "executablePath" in browser ? browser.executablePath : "", args: [...CHROMIUM_FLAGS] })
    try {
      const page = await noScript.newPage({ javaScriptEnabled: false })
      await page.goto(`${server.url}/dashboard`)
      await page.keyboard.press("Tab")
      await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content")
      await page.keyboard.press("Tab")
      await page.keyboard.press("Tab")
      await page.keyboard.type(world.email)
      await page.keyboard.press("Tab")
      await page.keyboard.type(world.password)
      await page.keyboard.press("Enter")
      await page.getByRole("link", { name: /Northwind Signs/ }).click()
      await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("API keys")

      await page.getByRole("radio", { name: "Test" }).check()
      await page.getByRole("checkbox", { name: /store:read/ }).check()
      await page.getByRole("button", { name: "Create key" }).click()
      const secret = await page.getByRole("textbox", { name: "New API key" }).inputValue()
      expect(secret).toMatch(/^sk_test_[0-9A-Za-z]{32,}$/)
      const me = await fetch(`${server.url}/api/v3/stores/me`, { headers: { authorization: `Bearer ${secret}` } })
      expect(me.status).toBe(200)
      expect((await me.json()).data.id).toBe(world.storeId)

      await page.getByRole("link", { name: `Revoke ${secret.slice(0, 12)}` }).click()
      await page.getByRole("button", { name: "Revoke key" }).click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain("The key was revoked.")
      expect((await fetch(`${server.url}/api/v3/stores/me`, { headers: { authorization: `Bearer ${secret}` } })).status).toBe(401)
    } finally {
      await noScript.close()
    }
  })

  it("signs in, sees a failed delivery with its attempt, and resends it", async () => {
    const page = await context.newPage()
    await watchPolicy(page)
    await page.goto(`${server.url}/dashboard`)
    await checkPage(page)
    await page.getByLabel("Email").fill(world.email)
    await page.getByLabel("Password").fill(world.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await checkPage(page)
    await page.getByRole("link", { name: /Northwind Signs/ }).click()
    await checkPage(page)

    await section(page, "Webhooks").click()
    const row = page.getByRole("row", { name: /order:created/ })
    await expect.poll(() => row.textContent()).toContain("Failing since")
    await checkPage(page)
    await row.getByRole("link", { name: /Deliveries/ }).click()
    const delivery = page.getByRole("row", { name: /msg_|wh_|evt_|\d/ }).filter({ hasText: "HTTP 500" })
    await expect.poll(() => delivery.count()).toBe(1)
    await checkPage(page)
    await delivery.getByRole("button", { name: /Resend/ }).click()
    await expect.poll(() => page.getByRole("status").textContent()).toContain("queued again")
    await receiver.waitFor((received) => received.length === 2)
    await expect.poll(async () => {
      await page.reload()
      return page.getByRole("row").filter({ hasText: "HTTP 200" }).count()
    }).toBe(1)
    expect(receiver.received[1]?.headers["x-webhook-id"]).toBe(receiver.received[0]?.headers["x-webhook-id"])
    await page.close()
  })

  it("revokes a connected agent", async () => {
    const page = await context.newPage()
    await watchPolicy(page)
    await page.goto(`${server.url}/dashboard/stores/${world.storeId}/agents`)
    const agent = page.getByRole("row", { name: /Sign Studio Assistant/ })
    expect(await agent.textContent()).toContain("127.0.0.1:7777")
    expect(await agent.textContent()).toContain("analytics:read")
    await checkPage(page)
    await agent.getByRole("link", { name: /Revoke/ }).click()
    await checkPage(page)
    await page.getByRole("button", { name: "Revoke access" }).click()
    await expect.poll(() => page.getByRole("status").textContent()).toContain("revoked")
    expect(await page.getByRole("row", { name: /Sign Studio Assistant/ }).count()).toBe(0)
    const connections = await fetch(`${server.url}/operator/v1/stores/${world.storeId}/connections`, {
      headers: { authorization: `Bearer ${OPERATOR_TOKEN}` }
    })
    expect((await connections.json()).data).toEqual([])
    const refreshed = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", client_id: world.agent.clientId, refresh_token: world.agent.refresh_token })
    })
    expect(refreshed.status).toBe(400)
    await page.close()
  })

  it("reads the revenue chart, whose totals are the analytics summary's", async () => {
    const page = await context.newPage()
    await watchPolicy(page)
    await page.goto(`${server.url}/dashboard/stores/${world.storeId}/analytics`)
    await checkPage(page)
    const summary = (await (await fetch(`${server.url}/api/v3/analytics/summary?period=30d`, {
      headers: { authorization: `Bearer ${world.apiKey}` }
    })).json()).data
    expect(summary.order_count).toBe(4)
    expect(summary.revenue).toEqual([{ currency: "USD", amount: 50_000, order_count: 4 }])
    const totals = await page.locator("dl.totals").textContent()
    expect(totals).toContain("Orders4")
    expect(totals).toContain("$500.00")
    // One point per day of the period, each named by its day and revenue; the best day is two days ago.
    const points = page.locator("svg circle.point")
    expect(await points.count()).toBe(30)
    const labels = await points.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("aria-label") ?? ""))
    expect(labels.filter((label) => label.endsWith("$173.45"))).toHaveLength(1)
    expect(labels.filter((label) => label.endsWith("$0.00"))).toHaveLength(27)
    // The chart reads out the point under keyboard focus.
    const best = points.nth(labels.findIndex((label) => label.endsWith("$173.45")))
    await best.focus()
    await expect.poll(() => page.locator(".chart-readout").textContent()).toMatch(/: \$173\.45$/)
    await page.getByRole("link", { name: "Last 7 days" }).click()
    expect(await page.locator("svg circle.point").count()).toBe(7)
    await checkPage(page)
    await page.close()
  })

  it("shows which key still calls v2, with the Sunset and the migration guide, and the pricing as tables", async () => {
    const page = await context.newPage()
    await watchPolicy(page)
    await page.goto(`${server.url}/dashboard/stores/${world.storeId}/migration`)
    await checkPage(page)
    const row = page.getByRole("row", { name: /GET \/api\/v2\/customisers/ })
    const text = await row.textContent()
    expect(text).toContain(world.legacyKey.slice(0, 12))
    expect(text).toMatch(/GET \/api\/v2\/customisers\s*1/)
    expect(await page.locator("main").textContent()).toContain("22 Jan 2027")
    await section(page, "Pricing").click()
    await checkPage(page)
    const standard = page.getByRole("table", { name: "Price list: Standard" })
    const small = standard.getByRole("row", { name: /^Small/ })
    expect(await small.textContent()).toContain("Line 1: $10.00")
    expect(await small.textContent()).toContain("$1.50")
    expect(await small.textContent()).toContain("$1.50 / cm")
    await page.goBack()
    await page.getByRole("link", { name: "migration guide" }).click()
    expect(new URL(page.url()).pathname).toBe("/docs/migration")
    await page.close()
    expect(foreign).toEqual([])
  })
})
