import { randomBytes } from "node:crypto"
import v8 from "node:v8"
import vm from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FAILED_SIGN_IN_WINDOW_SECONDS, MAX_CONCURRENT_PASSWORD_HASHES } from "../../packages/core/src/services/oauth-sessions.js"
import { adjustableClock } from "../support/clock.js"
import { databaseVariants, type TestDatabase } from "../support/databases.js"
import { hiddenFields, pkce, startOAuthApp } from "./harness.js"

// Issue 11: sign-in can be neither a memory nor a CPU lever, and guessing is held per address
// and per account. Each test signs in from addresses of its own, so no test spends another's quota.
v8.setFlagsFromString("--expose-gc")
const gc = vm.runInNewContext("gc") as () => void

describe.each(databaseVariants())("sign-in abuse ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>
  let fields: Record<string, string>
  let csrfCookie: string

  beforeAll(async () => {
    db = await variant.create()
    // The failure quotas count in fixed windows: the app's clock runs from at least five minutes
    // before a window's end, so no window edge falls among a test's sign-ins (split across two
    // windows, the failures would not reach a quota).
    const windowMs = FAILED_SIGN_IN_WINDOW_SECONDS * 1000
    const now = Date.now()
    const start = windowMs - (now % windowMs) < 300_000 ? now - (now % windowMs) + windowMs + 1000 : now
    app = startOAuthApp(db.config, {}, { clock: adjustableClock({ start, running: true }) })
    await app.ready()
    const client = await app.newClient()
    const query = new URLSearchParams({
      response_type: "code",
      client_id: client.clientId,
      redirect_uri: client.redirectUri,
      code_challenge: pkce().challenge,
      code_challenge_method: "S256"
    }).toString()
    const page = await app.fetchApp(`/oauth/authorize?${query}`)
    csrfCookie = (page.headers.getSetCookie().find((c) => c.startsWith("sc_csrf=")) ?? "").split(";")[0] ?? ""
    fields = hiddenFields(await page.text())
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const signIn = (email: string, password: string, ip: string) =>
    app.form("/oauth/authorize", { ...fields, email, password }, { cookie: csrfCookie }, ip)

  it("refuses emails longer than 254 characters before any work: 100 posts of 900 KB answer 400 and memory stays flat", async () => {
    const huge = () => `${randomBytes(450_000).toString("hex")}@example.com`
    gc()
    // The heap of this worker: RSS is shared with the other test files running in parallel.
    const before = process.memoryUsage().heapUsed
    for (let i = 0; i < 100; i++) {
      const res = await signIn(huge(), "whatever password", "198.51.100.10")
      expect(res.status).toBe(400)
      expect(await res.text()).toContain("at most 254 characters")
    }
    gc()
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1024 * 1024)
    // Nothing was counted for them: a valid sign-in from that address still goes through.
    const merchant = await app.seedMerchant()
    expect((await signIn(merchant.email, merchant.password, "198.51.100.10")).status).toBe(303)
  })

  it("ends 30 failed sign-ins with random emails from one address in 429 with Retry-After, whatever the emails", async () => {
    const statuses: Array<number> = []
    let limited: Response | undefined
    for (let i = 0; i < 30; i++) {
      const res = await signIn(`nobody-${randomBytes(6).toString("hex")}@example.com`, "wrong password!", "198.51.100.20")
      statuses.push(res.status)
      if (res.status === 429) limited = res
    }
    expect(statuses.at(-1)).toBe(429)
    expect(statuses.filter((status) => status === 200)).toHaveLength(20)
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(await limited?.text()).toContain("Too many failed sign-ins")
    // Another address is not held back by that one.
    const merchant = await app.seedMerchant()
    expect((await signIn(merchant.email, merchant.password, "198.51.100.21")).status).toBe(303)
  })

  it("holds one account after 10 failed sign-ins from any addresses, even with the right password", async () => {
    const merchant = await app.seedMerchant()
    for (let i = 0; i < 10; i++) {
      expect((await signIn(merchant.email, "wrong password!", `203.0.113.${i + 1}`)).status).toBe(200)
    }
    const held = await signIn(merchant.email.toUpperCase(), merchant.password, "203.0.113.200")
    expect(held.status).toBe(429)
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0)
  })

  it(`runs at most ${MAX_CONCURRENT_PASSWORD_HASHES} password hashes at once and answers the rest 429 at once`, async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => signIn(`busy-${i}@example.com`, "wrong password!", `192.0.2.${i + 1}`))
    )
    const statuses = answers.map((res) => res.status)
    // Eight arrive within far less than one hash's time: some run, the rest are turned away.
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(1)
    const busy = answers.filter((res) => res.status === 429)
    expect(busy.length).toBeGreaterThanOrEqual(1)
    expect(busy.length + statuses.filter((status) => status === 200).length).toBe(8)
    for (const res of busy) {
      expect(res.headers.get("retry-after")).toBe("1")
      expect(await res.text()).toContain("busy")
    }
  })
})
