import { randomBytes, scryptSync } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { PASSWORD_HASH_BYTES } from "../../src/domain/credentials/password.js"
import v8 from "node:v8"
import vm from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  FAILED_SIGN_IN_WINDOW_SECONDS,
  CLEAN_SIGN_INS_PER_ADDRESS,
  FAILED_SIGN_INS_PER_ACCOUNT,
  FAILED_SIGN_INS_PER_DEVICE,
  MAX_CONCURRENT_PASSWORD_HASHES,
  SIGN_INS_PER_ADDRESS,
  WAITING_SIGN_INS_PER_LANE
} from "../../src/services/oauth/sessions.js"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { adjustableClock } from "@signcraft/test-kit/clock"
import { hiddenFields, pkce, startOAuthApp } from "@signcraft/test-kit/oauth"

// docs/security.md: sign-in can be neither a memory nor a CPU lever, and guessing is held per address
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

  it(`queues sign-ins for the ${MAX_CONCURRENT_PASSWORD_HASHES} password hashes it runs at once instead of refusing them`, async () => {
    // Fewer than the hashes running plus one lane's waiting places, from clean addresses: every
    // one is answered, none turned away.
    const count = MAX_CONCURRENT_PASSWORD_HASHES + WAITING_SIGN_INS_PER_LANE
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) => signIn(`queued-${i}@example.com`, "wrong password!", `192.0.2.${i + 1}`))
    )
    expect(answers.map((res) => res.status)).toEqual(Array(count).fill(200))
  })

  it("holds at most one place in the queue per address: its other sign-ins meanwhile answer 429 Busy", async () => {
    const answers = await Promise.all(
      Array.from({ length: 4 }, (_, i) => signIn(`one-place-${i}@example.com`, "wrong password!", "192.0.2.50"))
    )
    const busy = answers.filter((res) => res.status === 429)
    expect(answers.filter((res) => res.status === 200).length).toBeGreaterThanOrEqual(1)
    expect(busy.length).toBeGreaterThanOrEqual(2)
    for (const res of busy) {
      expect(res.headers.get("retry-after")).toBe("1")
      expect(await res.text()).toContain("busy")
    }
  })

  it(`counts every sign-in of an address, not only failures: past ${SIGN_INS_PER_ADDRESS}, even turned-away ones, it is refused`, async () => {
    const merchant = await app.seedMerchant()
    // At once from one address: one hashes, the rest are turned away busy, and each is counted.
    const burst = await Promise.all(
      Array.from({ length: SIGN_INS_PER_ADDRESS }, () => signIn(merchant.email, merchant.password, "198.51.100.77"))
    )
    expect(burst.filter((res) => res.status === 429).length).toBeGreaterThan(0)
    const held = await signIn(merchant.email, merchant.password, "198.51.100.77")
    expect(held.status).toBe(429)
    expect(await held.text()).toContain("Too many")
  })

  it("keeps the hashes of the queue small, and upgrades a hash stored with the earlier, larger parameters at sign-in", async () => {
    // Every hash at once fits in a fraction of the server's memory budget.
    expect(PASSWORD_HASH_BYTES * MAX_CONCURRENT_PASSWORD_HASHES).toBeLessThanOrEqual(64 * 1024 * 1024)
    const merchant = await app.seedMerchant()
    const salt = randomBytes(16)
    const key = scryptSync(merchant.password.normalize("NFC"), salt, 64, { N: 131072, r: 8, p: 1, maxmem: 256 * 1024 * 1024 })
    const old = ["scrypt", 131072, 8, 1, salt.toString("base64"), key.toString("base64")].join("$")
    const stored = () =>
      app.runSql(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ hash: string }>`SELECT password_hash AS hash FROM persons WHERE lower(email) = ${merchant.email.toLowerCase()}`
        return row?.hash ?? ""
      }))
    await app.runSql(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE persons SET password_hash = ${old} WHERE lower(email) = ${merchant.email.toLowerCase()}`
    }))
    expect((await signIn(merchant.email, merchant.password, "198.51.100.90")).status).toBe(303)
    const upgraded = await stored()
    expect(upgraded.split("$").slice(0, 4)).toEqual(["scrypt", "32768", "8", "3"])
    expect((await signIn(merchant.email, merchant.password, "198.51.100.91")).status).toBe(303)
  })

  // The jam, replayed: attackers in one IPv6 /59 (a /64 each) keep failing sign-ins back to back
  // while the owner signs in.
  const jam = (emails: () => string) => {
    const addresses = Array.from({ length: 8 }, (_, i) => `2001:db8:77:${(0x20 + i).toString(16)}::1`)
    let stop = false
    let failures = 0
    const tries = new Map<string, { count: number; failed: boolean }>()
    const loops = addresses.map(async (address) => {
      const mine = { count: 0, failed: false }
      tries.set(address, mine)
      while (!stop) {
        const res = await signIn(emails(), "wrong password!", address)
        mine.count++
        if (res.status === 200) {
          mine.failed = true
          failures++
        }
        // Held back, an attacker would retry at once; here the loop lets the owner's requests in between.
        if (res.status === 429) await new Promise((resolve) => setImmediate(resolve))
      }
    })
    return {
      failures: () => failures,
      /** Every address has failed once or tried past the clean allowance: none counts as clean. */
      settled: () =>
        [...tries.values()].length === addresses.length &&
        [...tries.values()].every((t) => t.failed || t.count > CLEAN_SIGN_INS_PER_ADDRESS),
      stop: async () => {
        stop = true
        await Promise.all(loops)
      }
    }
  }
  const deviceCookieOf = (res: Response) =>
    (res.headers.getSetCookie().find((c) => c.startsWith("sc_device=")) ?? "").split(";")[0] ?? ""

  it("lets the owner sign in from a clean address, without a device cookie, while the jam runs", async () => {
    const merchant = await app.seedMerchant()
    const attack = jam(() => `nobody-${randomBytes(6).toString("hex")}@example.com`)
    try {
      // Every attacker has shown itself, and keeps going.
      while (!attack.settled()) await new Promise((resolve) => setTimeout(resolve, 20))
      for (let i = 0; i < 5; i++) {
        expect((await signIn(merchant.email, merchant.password, `198.51.100.${120 + i}`)).status).toBe(303)
      }
    } finally {
      await attack.stop()
    }
  })

  it("lets the owner in from a device that signed in before, even while the jam has locked the account", async () => {
    const merchant = await app.seedMerchant()
    const first = await signIn(merchant.email, merchant.password, "198.51.100.140")
    expect(first.status).toBe(303)
    const device = deviceCookieOf(first)
    expect(device).toMatch(/^sc_device=\d+\.[\w-]{22}\.[\w-]+$/)
    expect(first.headers.getSetCookie().find((c) => c.startsWith("sc_device="))).toMatch(/HttpOnly/i)
    const attack = jam(() => merchant.email)
    try {
      // The attackers' failures have locked the account.
      while (attack.failures() < FAILED_SIGN_INS_PER_ACCOUNT) await new Promise((resolve) => setTimeout(resolve, 20))
      // The account is locked for everyone else: a new device, even with the right password.
      expect((await signIn(merchant.email, merchant.password, "198.51.100.141")).status).toBe(429)
      // A made-up or another account's device cookie does not open the lock.
      const other = await app.seedMerchant()
      const otherDevice = deviceCookieOf(await signIn(other.email, other.password, "198.51.100.142"))
      const forged = device.replace(/\.[\w-]+$/, ".AAAA")
      for (const cookie of [forged, otherDevice]) {
        const res = await app.form("/oauth/authorize", { ...fields, email: merchant.email, password: merchant.password }, { cookie: `${csrfCookie}; ${cookie}` }, "198.51.100.144")
        expect(res.status).toBe(429)
      }
      for (let i = 0; i < 5; i++) {
        const res = await app.form("/oauth/authorize", { ...fields, email: merchant.email, password: merchant.password }, { cookie: `${csrfCookie}; ${device}` }, `198.51.100.${150 + i}`)
        expect(res.status).toBe(303)
      }
    } finally {
      await attack.stop()
    }
  })

  it(`holds a known device by its own failures: after ${FAILED_SIGN_INS_PER_DEVICE} it counts as unknown again`, async () => {
    const merchant = await app.seedMerchant()
    const device = deviceCookieOf(await signIn(merchant.email, merchant.password, "198.51.100.160"))
    const fromDevice = (password: string) =>
      app.form("/oauth/authorize", { ...fields, email: merchant.email, password }, { cookie: `${csrfCookie}; ${device}` }, "198.51.100.161")
    // The account is locked for unknown devices.
    for (let i = 0; i < FAILED_SIGN_INS_PER_ACCOUNT; i++) {
      expect((await signIn(merchant.email, "wrong password!", `203.0.113.${170 + i}`)).status).toBe(200)
    }
    for (let i = 0; i < FAILED_SIGN_INS_PER_DEVICE; i++) expect((await fromDevice("wrong password!")).status).toBe(200)
    expect((await fromDevice(merchant.password)).status).toBe(429)
  })
})
