import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { csrfOf, dashboardClient, seedMerchant, textOf } from "@signcraft/test-kit/dashboard"

describe.each(databaseVariants())("the merchant dashboard through the real handler ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startApp(db.config, { rateLimitPerIpPerMinute: 100_000, rateLimitPerKeyPerMinute: 10_000 })
    expect((await app.call("GET", "/healthz")).status).toBe(200)
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  it("shows a sign-in form under a strict policy, then the person's Stores, with an HttpOnly, SameSite=Lax session", async () => {
    const merchant = await seedMerchant(app, "Alpha")
    const browser = dashboardClient(app)
    const page = await browser.get("/dashboard")
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    expect(page.headers.get("cache-control")).toBe("no-store")
    const policy = page.headers.get("content-security-policy") ?? ""
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("style-src 'self'")
    expect(policy).toContain("script-src 'self'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).not.toMatch(/https?:|unsafe-inline/)
    expect(page.html).toContain(`<label for="email">Email</label>`)
    expect(page.html).toContain(`<label for="password">Password</label>`)
    expect(page.html).toContain(">Sign in</button>")

    const wrong = await browser.post("/dashboard/sign-in", { csrf_token: csrfOf(page.html), email: merchant.email, password: "not it" })
    expect(wrong.status).toBe(200)
    expect(textOf(wrong.html)).toContain("The email or password is incorrect.")

    const signedIn = await browser.post("/dashboard/sign-in", { csrf_token: csrfOf(wrong.html), email: merchant.email, password: merchant.password })
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get("location")).toBe("/dashboard")
    const session = signedIn.setCookies.find((line) => line.startsWith("sc_session="))
    expect(session).toBeDefined()
    expect(session).toMatch(/HttpOnly/i)
    expect(session).toMatch(/SameSite=Lax/i)
    expect(session).toMatch(/Path=\//)
    // A plain http loopback base URL is a developer's machine: no Secure there (a browser would drop it).
    expect(session).not.toMatch(/Secure/i)

    const stores = await browser.get("/dashboard")
    expect(textOf(stores.html)).toContain("Alpha Signs")
    expect(stores.html).toContain(`href="/dashboard/stores/${merchant.storeId}/keys"`)
  })

  it("refuses a sign-in without the form's anti-forgery token, and any signed-in form without the session's", async () => {
    const merchant = await seedMerchant(app, "Bravo")
    const browser = dashboardClient(app)
    await browser.get("/dashboard")
    const forged = await browser.post("/dashboard/sign-in", { csrf_token: "sc_csrf_forged", email: merchant.email, password: merchant.password })
    expect(forged.status).toBe(400)
    expect(forged.headers.get("content-type")).toContain("text/html")
    expect(browser.jar.has("sc_session")).toBe(false)

    expect((await browser.signIn(merchant.email, merchant.password)).status).toBe(303)
    const keysPath = `/dashboard/stores/${merchant.storeId}/keys`
    const withoutToken = await browser.post(keysPath, { mode: "test", scope: ["store:read"] })
    expect(withoutToken.status).toBe(400)
    const wrongToken = await browser.post(keysPath, { csrf_token: "sc_csrf_other", mode: "test", scope: ["store:read"] })
    expect(wrongToken.status).toBe(400)
    expect(textOf(wrongToken.html)).toContain("anti-forgery token")
    const listed = await browser.get(keysPath)
    expect(textOf(listed.html)).toContain("This Store has no API keys yet.")
  })

  it("creates a key whose secret is shown once and works against /api/v3, lists it, and revokes it after a confirmation", async () => {
    const merchant = await seedMerchant(app, "Charlie")
    const browser = dashboardClient(app)
    await browser.signIn(merchant.email, merchant.password)
    const keysPath = `/dashboard/stores/${merchant.storeId}/keys`
    const form = await browser.get(keysPath)
    const created = await browser.post(keysPath, { csrf_token: csrfOf(form.html), mode: "test", scope: ["store:read", "analytics:read"] })
    expect(created.status).toBe(201)
    const secret = /id="new-key" type="text" readonly value="(sk_test_[0-9A-Za-z]{32,})"/.exec(created.html)?.[1]
    expect(secret).toBeDefined()
    const me = await app.call("GET", "/api/v3/stores/me", { key: secret })
    expect(me.status).toBe(200)
    expect(me.body.data.id).toBe(merchant.storeId)
    expect([...me.body.data.scopes].sort()).toEqual(["analytics:read", "store:read"])

    // Listed by its prefix, mode and scopes, with its last use; the secret is never shown again.
    const listed = await browser.get(keysPath)
    expect(listed.html).not.toContain(secret)
    const text = textOf(listed.html)
    expect(text).toContain(`${secret?.slice(0, 12)}…`)
    expect(text).toMatch(/store:read\s*,\s*analytics:read/)
    expect(text).not.toContain("Never")

    const keyId = /\/keys\/(\d+)\/revoke/.exec(listed.html)?.[1]
    const confirm = await browser.get(`${keysPath}/${keyId}/revoke`)
    expect(confirm.status).toBe(200)
    expect(textOf(confirm.html)).toContain("Revoke this key?")
    // Only the confirmation's form revokes; the confirmation page itself changes nothing.
    expect((await app.call("GET", "/api/v3/stores/me", { key: secret })).status).toBe(200)
    const revoked = await browser.post(`${keysPath}/${keyId}/revoke`, { csrf_token: csrfOf(confirm.html) })
    expect(revoked.status).toBe(303)
    expect(revoked.headers.get("location")).toBe(`${keysPath}?done=revoked`)
    expect((await app.call("GET", "/api/v3/stores/me", { key: secret })).status).toBe(401)
    const after = await browser.get(`${keysPath}?done=revoked`)
    expect(textOf(after.html)).toContain("The key was revoked.")
    expect(after.html).not.toContain(`/keys/${keyId}/revoke`)
  })

  it("answers 404 for a Store of another company, one that does not exist, and a path that names no Store", async () => {
    const mine = await seedMerchant(app, "Delta")
    const theirs = await seedMerchant(app, "Echo")
    const browser = dashboardClient(app)
    await browser.signIn(mine.email, mine.password)
    for (const path of [
      `/dashboard/stores/${theirs.storeId}/keys`,
      `/dashboard/stores/${theirs.storeId}/webhooks`,
      `/dashboard/stores/${theirs.storeId}/agents`,
      `/dashboard/stores/${theirs.storeId}/analytics`,
      `/dashboard/stores/${theirs.storeId}/migration`,
      "/dashboard/stores/2147483647/keys",
      "/dashboard/stores/01/keys",
      "/dashboard/stores/abc/keys"
    ]) {
      const res = await browser.get(path)
      expect(res.status, path).toBe(404)
      expect(res.headers.get("content-type"), path).toContain("text/html")
      expect(textOf(res.html), path).not.toContain("Echo")
    }
    // Not even a form posted to it: the other Store's keys are untouched.
    const form = await browser.get(`/dashboard/stores/${mine.storeId}/keys`)
    const posted = await browser.post(`/dashboard/stores/${theirs.storeId}/keys`, { csrf_token: csrfOf(form.html), mode: "live", scope: ["store:read"] })
    expect(posted.status).toBe(404)
  })

  it("ends the session on sign-out: the old cookie opens nothing, on the dashboard or the consent screen", async () => {
    const merchant = await seedMerchant(app, "Foxtrot")
    const browser = dashboardClient(app)
    await browser.signIn(merchant.email, merchant.password)
    const cookie = browser.jar.get("sc_session")
    const stores = await browser.get("/dashboard")
    const out = await browser.post("/dashboard/sign-out", { csrf_token: csrfOf(stores.html) })
    expect(out.status).toBe(303)
    expect(out.setCookies.find((line) => line.startsWith("sc_session="))).toMatch(/Max-Age=0/i)
    const replayed = await app.handler(new Request(`http://127.0.0.1/dashboard/stores/${merchant.storeId}/keys`, {
      headers: { cookie: `sc_session=${cookie}` },
      redirect: "manual"
    }))
    expect(replayed.status).toBe(303)
    expect(replayed.headers.get("location")).toBe("/dashboard")
  })

  it("throttles failed sign-ins like the consent screen: the account is held after ten failures", async () => {
    const merchant = await seedMerchant(app, "Golf")
    const browser = dashboardClient(app)
    for (let attempt = 0; attempt < 10; attempt++) {
      const refused = await browser.signIn(merchant.email, "wrong password")
      expect(refused.status).toBe(200)
    }
    const held = await browser.signIn(merchant.email, merchant.password)
    expect(held.status).toBe(429)
    expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(textOf(held.html)).toContain("Too many failed sign-ins.")
  })

  it("recovers only a real window, sends a test event, and resends only the Store's own events", async () => {
    const mine = await seedMerchant(app, "Kilo")
    const theirs = await seedMerchant(app, "Lima")
    const subscribe = async (storeId: number) => {
      const key = (await app.operator("POST", `/stores/${storeId}/api-keys`, { mode: "test", scopes: ["webhooks:write"] })).body.key as string
      const created = await app.call("POST", "/api/v3/webhook-subscriptions", { key, body: { topic: "order:created", url: "http://127.0.0.1:9/hook" } })
      expect(created.status).toBe(201)
      return created.body.data.id as number
    }
    const mySubscription = await subscribe(mine.storeId)
    const theirSubscription = await subscribe(theirs.storeId)
    const browser = dashboardClient(app)
    await browser.signIn(mine.email, mine.password)
    const page = `/dashboard/stores/${mine.storeId}/webhooks/${mySubscription}`
    const token = csrfOf((await browser.get(page)).html)

    for (
      const [fields, fault] of [
        [{ since: "2026-11-21T14:00", until: "2026-11-21T14:00" }, /until\s*: Must be later than since\./],
        [{ since: "2026-11-21T14:00", until: "2026-11-20T09:30" }, /until\s*: Must be later than since\./],
        [{ since: "2026-02-30T10:00" }, /since\s*: Not a real date and time\./],
        [{ since: "2026-11-21T14:00", until: "soon" }, /until\s*: Not a date and time such as/],
        [{ since: "yesterday" }, /since\s*: Must be a date and time such as/],
        [{}, /since\s*:/]
      ] as const
    ) {
      const refused = await browser.post(`${page}/recover`, { csrf_token: token, ...fields })
      expect(refused.status, JSON.stringify(fields)).toBe(422)
      expect(textOf(refused.html), JSON.stringify(fields)).toMatch(fault)
    }
    const forged = await browser.post(`${page}/recover`, { csrf_token: "sc_csrf_forged", since: "2026-11-21T14:00" })
    expect(forged.status).toBe(400)

    // A window with nothing missed: the answer says so, rather than a count of nothing.
    const nothing = await browser.post(`${page}/recover`, { csrf_token: token, since: "2020-01-01T00:00", until: "" })
    expect(nothing.status).toBe(200)
    expect(textOf(nothing.html)).toContain("Nothing to recover")
    // Another company's subscription is not found under this Store, whatever the form says.
    const foreign = await browser.post(`/dashboard/stores/${mine.storeId}/webhooks/${theirSubscription}/recover`, { csrf_token: token, since: "2020-01-01T00:00" })
    expect(foreign.status).toBe(404)

    const tested = await browser.post(`${page}/test`, { csrf_token: token })
    expect(tested.status).toBe(303)
    expect(tested.headers.get("location")).toBe(`${page}?done=tested`)
    const listed = await browser.get(`${page}?done=tested`)
    expect(textOf(listed.html)).toContain("A webhook:test event was queued for this endpoint only")
    expect(textOf(listed.html)).toMatch(/webhook:test, .* UTC pending manual/)
    expect((await browser.post(`/dashboard/stores/${mine.storeId}/webhooks/${theirSubscription}/test`, { csrf_token: token })).status).toBe(404)

    // Resend names an event: the test event's resend is accepted, an unknown or malformed one is not found.
    const eventId = /\/events\/(\d+)\/resend/.exec(listed.html)?.[1]
    expect(eventId).toBeDefined()
    expect((await browser.post(`${page}/events/${eventId}/resend`, { csrf_token: token })).headers.get("location")).toBe(`${page}?done=resent`)
    expect((await browser.post(`${page}/events/${eventId}/resend`, { csrf_token: token })).status).toBe(303)
    expect((await browser.post(`/dashboard/stores/${mine.storeId}/webhooks/${theirSubscription}/events/${eventId}/resend`, { csrf_token: token })).status).toBe(404)
    expect((await browser.post(`${page}/events/2147483647/resend`, { csrf_token: token })).status).toBe(404)
    expect((await browser.post(`${page}/events/abc/resend`, { csrf_token: token })).status).toBe(404)
  })

  it("answers 405 with Allow for another method on a dashboard path, and never a 5xx for a malformed form", async () => {
    const merchant = await seedMerchant(app, "Hotel")
    const browser = dashboardClient(app)
    const put = await app.handler(new Request("http://127.0.0.1/dashboard", { method: "PUT" }))
    expect(put.status).toBe(405)
    expect(put.headers.get("allow")).toBe("GET, HEAD")
    await browser.signIn(merchant.email, merchant.password)
    const keysPath = `/dashboard/stores/${merchant.storeId}/keys`
    const token = csrfOf((await browser.get(keysPath)).html)
    const json = await browser.post(keysPath, {}, { "content-type": "application/json" })
    expect(json.status).toBe(400)
    const noScope = await browser.post(keysPath, { csrf_token: token, mode: "test" })
    expect(noScope.status).toBe(422)
    const badMode = await browser.post(keysPath, { csrf_token: token, mode: "prod", scope: ["store:read"] })
    expect(badMode.status).toBe(422)
    const unknownScope = await browser.post(keysPath, { csrf_token: token, mode: "test", scope: ["everything"] })
    expect(unknownScope.status).toBe(422)
    const nul = await browser.post(keysPath, { csrf_token: token, mode: "test\u0000", scope: ["store:read"] })
    expect(nul.status).toBe(400)
  })
})
