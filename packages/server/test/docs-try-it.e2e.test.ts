import { execFile } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { browserLeg, CHROMIUM_FLAGS } from "@signcraft/test-kit/chromium"
import { freePort, type ServerProcess, startServer, waitForHealthy } from "./support/server-process.js"

// A newcomer's first minute: `npm start` in development prints a demo key and the /docs URL;
// the reference there already holds that key, so its curl snippet and its Test Request work as
// they stand.

const browser = browserLeg()
const run = promisify(execFile)
const dataDir = mkdtempSync(join(tmpdir(), "signcraft-docs-try-it-"))
let server: ServerProcess | undefined

afterAll(() => {
  server?.child.kill("SIGKILL")
  rmSync(dataDir, { recursive: true, force: true })
})

describe.skipIf("skip" in browser)("/docs on a fresh development server", () => {
  let base = ""
  let demoKey = ""

  beforeAll(async () => {
    const port = await freePort()
    base = `http://127.0.0.1:${port}`
    server = startServer(["serve"], {
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: base,
      DATA_DIR: dataDir,
      SIGNCRAFT_ENV: "development"
    })
    await waitForHealthy(`${base}/healthz`, () => {}, 90_000)
    const keyLine = await server.waitForLine(/API key\s+sk_test_/)
    demoKey = /(sk_test_[0-9A-Za-z]+)/.exec(keyLine)?.[1] ?? ""
  }, 120_000)

  it("fills in the printed demo key: the curl snippet of stores/me and Test Request both answer 200", async () => {
    expect(demoKey).toMatch(/^sk_test_/)
    const { chromium } = await import("playwright-core")
    const profile = mkdtempSync(join(tmpdir(), "signcraft-chromium-"))
    const context = await chromium.launchPersistentContext(profile, {
      executablePath: "executablePath" in browser ? browser.executablePath : "",
      args: [...CHROMIUM_FLAGS],
      headless: true
    })
    try {
      await context.route("**/*", (route) => (route.request().url().startsWith(base) ? route.continue() : route.abort()))
      const page = await context.newPage()
      await page.goto(`${base}/docs#tag/stores/GET/api/v3/stores/me`)

      // The snippet Scalar generates for the operation, as a reader copies it.
      const snippet = await page.waitForFunction(
        () =>
          [...document.querySelectorAll("pre")]
            .map((element) => element.innerText)
            .find((text) => text.startsWith("curl") && text.includes("/api/v3/stores/me")),
        null,
        { timeout: 60_000 }
      ).then((handle) => handle.jsonValue())
      expect(snippet).toContain(`Authorization: Bearer ${demoKey}`)
      const { stdout } = await run("sh", ["-c", `${String(snippet).trim()} --silent --output /dev/null --write-out '%{http_code}'`])
      expect(stdout).toBe("200")

      // Test Request opens Scalar's client for the operation; Send makes the call from the page.
      const answered = page.waitForResponse((response) => response.url() === `${base}/api/v3/stores/me`, { timeout: 60_000 })
      await page.getByRole("button", { name: "Test Request (get /api/v3/stores/me)" }).click()
      await page.getByRole("button", { name: /Send Request/ }).first().click()
      const response = await answered
      expect(response.request().headers().authorization).toBe(`Bearer ${demoKey}`)
      expect(response.status()).toBe(200)
    } finally {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  })
})
