import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { embeddedVariant, startApp, type TestDatabase } from "@signcraft/test-kit"
import { csrfOf, dashboardClient, seedMerchant } from "@signcraft/test-kit/dashboard"

// The rules here are about settings, not storage: one embedded database serves them all.
describe("the dashboard in a deployment: base path, https cookies, the switch", () => {
  let db: TestDatabase
  const apps: Array<ReturnType<typeof startApp>> = []
  const appWith = (settings: Parameters<typeof startApp>[1]) => {
    const app = startApp(db.config, { rateLimitPerIpPerMinute: 100_000, ...settings })
    apps.push(app)
    return app
  }

  beforeAll(async () => {
    db = await embeddedVariant.create()
  })
  afterAll(async () => {
    for (const app of apps) await app.dispose()
    await db.cleanup()
  })

  it("works under the base path, writes every link and cookie with it, and is not served outside it", async () => {
    const app = appWith({ baseUrl: "https://shop.example/signs" })
    const merchant = await seedMerchant(app, "India")
    const browser = dashboardClient(app, "/signs")
    const page = await browser.get("/dashboard")
    expect(page.status).toBe(200)
    expect(page.html).toContain(`action="/signs/dashboard/sign-in"`)
    expect(page.html).toContain(`href="/signs/dashboard/assets/dashboard.css"`)
    expect(page.html).toContain(`src="/signs/dashboard/assets/dashboard.js"`)
    const signedIn = await browser.post("/dashboard/sign-in", { csrf_token: csrfOf(page.html), email: merchant.email, password: merchant.password })
    expect(signedIn.status).toBe(303)
    expect(signedIn.headers.get("location")).toBe("/signs/dashboard")
    // Under https: Secure, and the prefix a path allows (`__Host-` needs the origin's root).
    const session = signedIn.setCookies.find((line) => line.startsWith("__Secure-sc_session="))
    expect(session).toMatch(/Secure/)
    expect(session).toMatch(/HttpOnly/i)
    expect(session).toMatch(/SameSite=Lax/i)
    expect(session).toMatch(/Path=\/signs(;|$)/)
    const stores = await browser.get("/dashboard")
    expect(stores.html).toContain(`href="/signs/dashboard/stores/${merchant.storeId}/keys"`)
    const keys = await browser.get(`/dashboard/stores/${merchant.storeId}/keys`)
    expect(keys.html).toContain(`action="/signs/dashboard/stores/${merchant.storeId}/keys"`)
    expect(keys.html).toContain(`action="/signs/dashboard/sign-out"`)
    const css = await browser.get("/dashboard/assets/dashboard.css")
    expect(css.status).toBe(200)
    expect(css.headers.get("content-type")).toContain("text/css")
    const outside = await app.handler(new Request("http://127.0.0.1/dashboard"))
    expect(outside.status).toBe(404)
  })

  it("at an origin's root under https, the session cookie is __Host- prefixed and Secure on path /", async () => {
    const app = appWith({ baseUrl: "https://signs.example" })
    const merchant = await seedMerchant(app, "Juliett")
    const signedIn = await dashboardClient(app).signIn(merchant.email, merchant.password)
    const session = signedIn.setCookies.find((line) => line.startsWith("__Host-sc_session="))
    expect(session).toMatch(/Secure/)
    expect(session).toMatch(/Path=\/(;|$)/)
  })

  it("answers 404 everywhere under /dashboard when SIGNCRAFT_DISABLE names dashboard, like an unknown path", async () => {
    const app = appWith({ disable: ["dashboard"] })
    for (const [method, path] of [["GET", "/dashboard"], ["POST", "/dashboard/sign-in"], ["GET", "/dashboard/assets/dashboard.css"], ["PUT", "/dashboard"]]) {
      const res = await app.handler(new Request(`http://127.0.0.1${path}`, { method }))
      expect(res.status, `${method} ${path}`).toBe(404)
      const unknown = await app.handler(new Request("http://127.0.0.1/no-such-path"))
      expect(res.headers.get("content-type")).toBe(unknown.headers.get("content-type"))
    }
    // The rest of the service is untouched.
    expect((await app.call("GET", "/healthz")).status).toBe(200)
  })
})
