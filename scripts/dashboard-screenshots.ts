/**
 * Writes the dashboard's screenshots in `docs/screenshots/` (each page at 375 and 1440 px wide), from
 * a throwaway embedded database seeded through the APIs the way the browser tests seed it. Run it
 * after changing how the dashboard looks:
 *
 *   node --conditions=@signcraft/source --import tsx scripts/dashboard-screenshots.ts
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { chromium } from "playwright-core"
import { embeddedVariant } from "@signcraft/test-kit"
import { browserLeg, CHROMIUM_FLAGS } from "@signcraft/test-kit/chromium"
import { seedDashboardWorld } from "@signcraft/test-kit/dashboard-world"
import { startLoopbackServer } from "@signcraft/test-kit/loopback"
import { startReceiver } from "@signcraft/test-kit/receiver"

const leg = browserLeg()
if ("skip" in leg) throw new Error(leg.skip)
const out = fileURLToPath(new URL("../docs/screenshots/", import.meta.url))
mkdirSync(out, { recursive: true })

const db = await embeddedVariant.create()
const receiver = await startReceiver((_, previous) => (previous === 0 ? 500 : 200))
const server = await startLoopbackServer(db.config, { webhookRetryBaseMs: 3_600_000 }, { deliveryWorker: { pollIntervalMs: 20 } })
const profile = mkdtempSync(join(tmpdir(), "signcraft-screenshots-"))
try {
  const world = await seedDashboardWorld(server, receiver)
  await receiver.waitFor((received) => received.length === 1)
  const context = await chromium.launchPersistentContext(profile, { executablePath: leg.executablePath, args: [...CHROMIUM_FLAGS], headless: true })
  const page = await context.newPage()
  const shoot = async (name: string) => {
    for (const width of [375, 1440]) {
      await page.setViewportSize({ width, height: width === 375 ? 812 : 900 })
      await page.screenshot({ path: join(out, `dashboard-${name}-${width}.png`), fullPage: true })
    }
  }
  await page.goto(`${server.url}/dashboard`)
  await shoot("sign-in")
  await page.getByLabel("Email").fill(world.email)
  await page.getByLabel("Password").fill(world.password)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.waitForURL(`${server.url}/dashboard`)
  const store = `${server.url}/dashboard/stores/${world.storeId}`
  await page.goto(`${store}/keys`)
  await page.getByRole("checkbox", { name: /store:read/ }).check()
  await page.getByRole("button", { name: "Create key" }).click()
  await shoot("keys")
  // The failed delivery, resent from its page: the shot shows both attempts, the receiver's 500
  // with its answer and the resend's 200.
  const subscription = `${store}/webhooks/${world.subscriptionId}`
  await page.goto(subscription)
  await page.getByRole("row").filter({ hasText: "HTTP 500" }).getByRole("button", { name: /Resend/ }).click()
  await receiver.waitFor((received) => received.length === 2)
  for (let look = 0; (await page.getByRole("row").filter({ hasText: "HTTP 200" }).count()) === 0; look++) {
    if (look === 100) throw new Error("the resent attempt never showed on the subscription's page")
    await page.goto(subscription)
  }
  await shoot("webhook-deliveries")
  await page.goto(`${store}/agents`)
  await shoot("agents")
  await page.goto(`${store}/analytics`)
  await shoot("analytics")
  await page.goto(`${store}/migration`)
  await shoot("migration")
  await page.goto(`${store}/pricing`)
  await shoot("pricing")
  await context.close()
} finally {
  await server.dispose()
  await receiver.close()
  await db.cleanup()
  rmSync(profile, { recursive: true, force: true })
}
