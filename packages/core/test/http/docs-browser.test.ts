import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedVariant, type TestDatabase } from "@signcraft/test-kit"
import { browserLeg, CHROMIUM_FLAGS } from "@signcraft/test-kit/chromium"
import { startLoopbackServer } from "@signcraft/test-kit/loopback"

const browser = browserLeg()

type Spec = { readonly paths: Record<string, Record<string, { readonly summary?: string; readonly operationId?: string }>> }

describe.skipIf("skip" in browser)("the API reference in a real browser", () => {
  let db: TestDatabase
  let server: Awaited<ReturnType<typeof startLoopbackServer>>

  beforeAll(async () => {
    db = await embeddedVariant.create()
    server = await startLoopbackServer(db.config, { operatorToken: undefined })
  })
  afterAll(async () => {
    await server.dispose()
    await db.cleanup()
  })

  it("renders every operation of the document at /docs under its CSP, asking no other host for anything", async () => {
    const spec: Spec = await (await fetch(`${server.url}/api/v3/openapi.json`)).json()
    const summaries = Object.values(spec.paths).flatMap((item) =>
      Object.values(item).flatMap((operation) => (operation.summary === undefined ? [] : [operation.summary]))
    )
    expect(summaries.length).toBeGreaterThan(10)

    const { chromium } = await import("playwright-core")
    const profile = mkdtempSync(join(tmpdir(), "signcraft-chromium-"))
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: "executablePath" in browser ? browser.executablePath : "",
      args: [...CHROMIUM_FLAGS],
      headless: true
    })
    const foreign: Array<string> = []
    try {
      // Every request leaves through here: anything not for this server is recorded and refused.
      await context.route("**/*", (route) => {
        const url = route.request().url()
        if (url.startsWith(server.url) || url.startsWith("data:") || url.startsWith("blob:")) return route.continue()
        foreign.push(url)
        return route.abort()
      })
      const page = await context.newPage()
      // What the page's Content-Security-Policy blocks, as the browser reports it.
      await page.addInitScript(() => {
        const seen: Array<string> = []
        Object.assign(window, { cspViolations: seen })
        document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`))
      })
      const answer = await page.goto(`${server.url}/docs`)
      expect(answer?.headers()["content-security-policy"]).toContain("frame-ancestors 'none'")
      await page.waitForFunction(
        // biome-ignore lint/performance/useDomNodeTextContent: only text the page shows counts as rendered
        (expected) => expected.every((summary) => document.body.innerText.includes(summary)),
        summaries,
        { timeout: 60_000 }
      )
      // biome-ignore lint/performance/useDomNodeTextContent: only text the page shows counts as rendered
      const text = await page.evaluate(() => document.body.innerText)
      for (const summary of summaries) expect(text).toContain(summary)
      // Rendered under the policy: the one thing it refused is Scalar's attempt at eval, which
      // the page does without; nothing it loads or runs was blocked.
      const violations = await page.evaluate(() => (window as unknown as { cspViolations: Array<string> }).cspViolations)
      expect(violations.filter((violation) => violation !== "script-src eval")).toEqual([])
    } finally {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
    expect(foreign).toEqual([])
  })
})
