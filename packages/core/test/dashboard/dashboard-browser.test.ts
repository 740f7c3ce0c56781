import { readFileSync, mkdtempSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { Effect, Layer, Random } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { sampleEventPayload } from "../../src/domain/webhooks/topics.js"
import { signPayload } from "../../src/domain/webhooks/signature.js"
import { Outbox } from "../../src/services/webhooks/outbox.js"
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
    // Retries wait a uniform draw up to their ceiling ("full jitter"): a low draw would retry within
    // the test and turn the endpoint healthy. The draw is fixed near the top of the range instead.
    const lateRetries = Layer.succeed(Random.Random, { nextDoubleUnsafe: () => 0.999, nextIntUnsafe: () => 0 })
    server = await startLoopbackServer(db.config, { webhookRetryBaseMs: 3_600_000 }, { deliveryWorker: { pollIntervalMs: 20 } }, {
      layer: lateRetries
    })
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
  // The browser's session, signing in when the profile holds none yet.
  const signIn = async (page: Page) => {
    await page.goto(`${server.url}/dashboard`)
    if ((await page.getByLabel("Password").count()) === 0) return
    await page.getByLabel("Email").fill(world.email)
    await page.getByLabel("Password").fill(world.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("link", { name: /Northwind Signs/ }).waitFor()
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
    await expect.poll(async () => {
      await page.reload()
      return row.textContent()
    }).toContain("Failing since")
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
    // One delivery, now with two attempts: the scheduled one that failed, with the receiver's
    // answer, and the resend (trigger manual) that got through.
    const resent = page.getByRole("row").filter({ hasText: "HTTP 200" })
    const attempts = resent.getByRole("listitem")
    expect(await attempts.count()).toBe(2)
    expect(await attempts.nth(0).textContent()).toMatch(/HTTP 500\s*scheduled,[\s\S]*\{"error":"nope"\}/)
    expect(await attempts.nth(1).textContent()).toMatch(/HTTP 200\s*manual,/)
    expect(await resent.getByRole("cell").nth(2).textContent()).toBe("manual")
    await page.close()
  })

  it("shows why a receiver's subscription was disabled, sends it a test event, recovers since a time, rotates its secret and re-enables it", async () => {
    // A receiver that answered 410 Gone until it is back up.
    let up = false
    const back = await startReceiver(() => (up ? 200 : 410))
    try {
      const subscription = await fetch(`${server.url}/api/v3/webhook-subscriptions`, {
        method: "POST",
        headers: { authorization: `Bearer ${world.apiKey}`, "content-type": "application/json" },
        body: JSON.stringify({ topic: "form:submitted", url: back.url("/forms") })
      })
      const subscriptionId = (await subscription.json()).data.id as number
      const status = async () =>
        (await (await fetch(`${server.url}/api/v3/webhook-subscriptions/${subscriptionId}`, {
          headers: { authorization: `Bearer ${world.apiKey}` }
        })).json()).data as { status: string; disabled_reason: string | null }
      // The window starts a minute before the subscription, on a whole minute as the form sends it.
      const since = new Date(Math.floor((Date.now() - 60_000) / 60_000) * 60_000).toISOString().slice(0, 16)
      await server.run(Effect.gen(function*() {
        yield* (yield* Outbox).enqueue(world.storeId, "form:submitted", sampleEventPayload("form:submitted"))
      }))
      await back.waitFor((received) => received.length === 1)
      await expect.poll(status, { timeout: 20_000 }).toEqual(expect.objectContaining({ status: "disabled", disabled_reason: "gone" }))
      const firstId = back.received[0]?.headers["x-webhook-id"]

      const page = await context.newPage()
      await watchPolicy(page)
      await signIn(page)
      await page.goto(`${server.url}/dashboard/stores/${world.storeId}/webhooks`)
      const row = page.getByRole("row", { name: /form:submitted/ })
      expect(await row.textContent()).toContain("Disabled (gone)")
      await row.getByRole("link", { name: /Deliveries/ }).click()
      const subscriptionUrl = page.url()
      expect(await page.getByRole("main").textContent()).toContain("Deliveries are stopped: the receiver answered 410 Gone")
      const gone = page.getByRole("row").filter({ hasText: "HTTP 410" })
      expect(await gone.count()).toBe(1)
      expect(await gone.textContent()).toContain(`{"error":"nope"}`)
      await checkPage(page)

      // A test event reaches the receiver, which is back, though the subscription is still disabled.
      up = true
      await page.getByRole("button", { name: "Send a test event" }).click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain("webhook:test event was queued")
      await back.waitFor((received) => received.length === 2)
      await expect.poll(async () => {
        await page.goto(subscriptionUrl)
        return page.getByRole("row").filter({ hasText: "webhook:test" }).filter({ hasText: "HTTP 200" }).count()
      }, { timeout: 20_000 }).toBe(1)

      // Recovery since a time: the event it missed goes again, with its own webhook id.
      await page.getByLabel("Since (UTC)").fill(since)
      await page.getByRole("button", { name: "Recover events" }).click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain("1 event was queued again")
      await back.waitFor((received) => received.length === 3)
      expect(back.received[2]?.headers["x-webhook-id"]).toBe(firstId)
      const recovered = page.getByRole("row").filter({ hasText: "form:submitted" })
      await expect.poll(async () => {
        await page.goto(subscriptionUrl)
        return recovered.filter({ hasText: "HTTP 200" }).count()
      }, { timeout: 20_000 }).toBe(1)
      expect(await recovered.getByRole("cell").nth(2).textContent()).toBe("recovery")
      // Nothing is left to recover in that window now.
      await page.getByLabel("Since (UTC)").fill(since)
      await page.getByRole("button", { name: "Recover events" }).click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain("Nothing to recover")

      // A new secret, shown once, with the end of the 24-hour overlap; deliveries carry both signatures.
      const rotatedFrom = Date.now()
      await page.getByRole("button", { name: "Rotate secret" }).click()
      const secret = await page.getByRole("textbox", { name: "New signing secret" }).inputValue()
      const rotatedBy = Date.now()
      expect(secret.length).toBeGreaterThan(20)
      const overlap = /Until (\d{1,2} \w{3} \d{4}), (\d{2}:\d{2}) UTC/.exec((await page.getByRole("main").textContent()) ?? "")
      const overlapEnds = Date.parse(`${overlap?.[1]} ${overlap?.[2]} UTC`)
      expect(overlapEnds).toBeGreaterThan(rotatedFrom + 86_400_000 - 60_000)
      expect(overlapEnds).toBeLessThanOrEqual(rotatedBy + 86_400_000)
      await checkPage(page)
      await page.goto(subscriptionUrl)
      await page.getByRole("button", { name: "Send a test event" }).click()
      await back.waitFor((received) => received.length === 4)
      const signed = back.received[3]
      expect(signed?.headers["x-webhook-signature-next"]).toBe(
        signPayload(secret, Number(signed?.headers["x-webhook-timestamp"]), signed?.rawBody ?? Buffer.alloc(0))
      )

      await page.getByRole("button", { name: "Re-enable" }).click()
      await expect.poll(() => page.getByRole("status").textContent()).toContain("active again")
      expect(await page.getByRole("button", { name: "Re-enable" }).count()).toBe(0)
      expect(await status()).toEqual(expect.objectContaining({ status: "active", disabled_reason: null }))
      await page.close()
    } finally {
      await back.close()
    }
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
    // Every period's totals are the summary the API answers for it, and its chart has a point per day.
    for (const period of ["7d", "30d", "90d", "365d"]) {
      await page.getByRole("navigation", { name: "Period" }).getByRole("link", { name: `Last ${period.replace("d", " days")}` }).click()
      const answered = (await (await fetch(`${server.url}/api/v3/analytics/summary?period=${period}`, {
        headers: { authorization: `Bearer ${world.apiKey}` }
      })).json()).data as { order_count: number; product_count: number; revenue: ReadonlyArray<{ currency: string; amount: number }> }
      const shown = await page.locator("dl.totals dd").allTextContents()
      expect(shown, period).toEqual([
        String(answered.order_count),
        String(answered.product_count),
        ...answered.revenue.map((r) => new Intl.NumberFormat("en", { style: "currency", currency: r.currency }).format(r.amount / 100))
      ])
      expect(await page.locator("svg circle.point").count(), period).toBe(Number.parseInt(period, 10))
    }
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
