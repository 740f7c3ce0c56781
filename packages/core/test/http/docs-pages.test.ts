import { execFileSync } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Context } from "effect"
import { HttpApi } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Enums from "../../src/domain/enums.js"
import { retryCeilingMs } from "../../src/domain/webhooks/retry-schedule.js"
import { signatureHeaders } from "../../src/domain/webhooks/signature.js"
import { WEBHOOK_TOPICS } from "../../src/domain/webhooks/topics.js"
import { DeprecatedOperation } from "../../src/http/annotations.js"
import { SigncraftApi } from "../../src/http/api/index.js"
import { Result } from "effect"
import { legacyOrderToV3 } from "../../src/domain/orders/legacy-order-to-v3.js"
import { legacyProductToV3 } from "../../src/domain/orders/legacy-product-to-v3.js"
import { v2OrderToV3 } from "../../src/domain/orders/v2-order-to-v3.js"
import { pricingV3ToV2 } from "../../src/domain/pricing/translate-pricing.js"
import {
  FIELD_MAP,
  resolveProductId,
  SAMPLE_LEGACY_ORDER,
  SAMPLE_PRICING,
  SAMPLE_V2_ORDER
} from "../../src/http/docs/migration-page.js"
import { escapeHtml } from "../../src/http/docs/pages.js"
import {
  formatDelay,
  PYTHON_RECIPE,
  SHELL_RECIPE,
  TYPESCRIPT_RECIPE
} from "../../src/http/docs/webhooks-page.js"
import { PROBLEM_CODES } from "../../src/presenters/failure-table.js"
import { defaultSettings } from "../../src/services/settings.js"
import { embeddedVariant, OPERATOR_TOKEN, startApp, type TestDatabase } from "@signcraft/test-kit"

// Every enumeration enums.ts exports, so a new one is checked without being listed here.
const isEnumDefinition = (value: unknown): value is Enums.EnumDefinition<string, string> =>
  typeof value === "object" && value !== null && "legacyValues" in value && "toCanonical" in value
const enumDefinitions = (): ReadonlyArray<Enums.EnumDefinition<string, string>> =>
  Object.values<unknown>(Enums).filter(isEnumDefinition)

describe("documentation pages", () => {
  let db: TestDatabase
  let operatorDb: TestDatabase
  let app: ReturnType<typeof startApp>
  let operator: ReturnType<typeof startApp>

  beforeAll(async () => {
    db = await embeddedVariant.create()
    operatorDb = await embeddedVariant.create()
    // The test app serves the operator API unless told otherwise.
    app = startApp(db.config, { operatorToken: undefined })
    operator = startApp(operatorDb.config)
  })
  afterAll(async () => {
    await app.dispose()
    await operator.dispose()
    await db.cleanup()
    await operatorDb.cleanup()
  })

  it("resolve every problem type to a page with its status, meaning, recovery and an example", async () => {
    for (const code of PROBLEM_CODES) {
      const page = await app.handler(new Request(`http://localhost:8080/docs/problems/${code}`))
      expect(page.status, code).toBe(200)
      expect(page.headers.get("content-type")).toContain("text/html")
      const html = await page.text()
      expect(html).toMatch(/HTTP \d{3}/)
      for (const heading of ["Meaning", "When it happens", "How to recover", "Example"]) expect(html).toContain(heading)
      expect(html, code).toContain(`&quot;code&quot;: &quot;${code}&quot;`)
    }
    const index = await app.handlerText("/docs/problems")
    for (const code of PROBLEM_CODES) expect(index).toContain(`/docs/problems/${code}`)
  })

  it("link a live problem document's type to its page, and answer 404 for an unknown code", async () => {
    const problem = await app.call("GET", "/api/v3/stores/me")
    expect(problem.status).toBe(401)
    const type = new URL(problem.body.type)
    expect(type.pathname).toBe(`/docs/problems/${problem.body.code}`)
    expect((await app.handler(new Request(type))).status).toBe(200)
    expect((await app.handler(new Request("http://localhost:8080/docs/problems/no_such_code"))).status).toBe(404)
  })

  it("send every /docs reference page with a CSP that names only this host and forbids framing", async () => {
    const res = await app.handler(new Request("http://localhost:8080/docs"))
    expect(res.status).toBe(200)
    const policy = res.headers.get("content-security-policy") ?? ""
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("frame-ancestors 'none'")
    expect(policy).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/)
    expect(policy).not.toMatch(/https?:|'unsafe-eval'|script-src[^;]*'unsafe-inline'/)
    expect(res.headers.get("x-frame-options")).toBe("DENY")
  })

  it("serve the operator API's own reference only when the operator API is served", async () => {
    expect((await app.handler(new Request("http://localhost:8080/docs/operator/openapi.json"))).status).toBe(404)
    expect((await app.handler(new Request("http://localhost:8080/docs/operator"))).status).toBe(404)
    // Served, but only to the operator token: without it or with another, 401.
    const withToken = (path: string, token?: string) =>
      operator.handler(new Request(`http://localhost:8080${path}`, token === undefined ? {} : { headers: { authorization: `Bearer ${token}` } }))
    for (const path of ["/docs/operator", "/docs/operator/openapi.json"]) {
      expect((await withToken(path)).status).toBe(401)
      expect((await withToken(path, "op_guess")).status).toBe(401)
    }
    const document = await (await withToken("/docs/operator/openapi.json", OPERATOR_TOKEN)).json()
    expect(Object.keys(document.paths).every((path: string) => path.startsWith("/operator/"))).toBe(true)
    expect(Object.keys(document.paths).length).toBeGreaterThan(5)
    const page = await withToken("/docs/operator", OPERATOR_TOKEN)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'")
    const publicDocument = JSON.parse(await app.handlerText("/api/v3/openapi.json"))
    expect(JSON.stringify(publicDocument.paths)).not.toContain("/operator/")
    expect(Object.keys(publicDocument.paths)).toContain("/storefront/v1/customisers/{customiser_id}/designs")
  })

  it("serve a migration guide that maps every deprecated operation the API declares to a v3 operation", async () => {
    const deprecated: Array<string> = []
    const operations = new Set<string>()
    HttpApi.reflect(SigncraftApi, {
      onGroup: () => {},
      onEndpoint: ({ endpoint }) => {
        const name = `${endpoint.method} ${endpoint.path.replace(/:(\w+)/g, "{$1}")}`
        const annotation = Context.get(endpoint.annotations, DeprecatedOperation)
        if (annotation === undefined) operations.add(name)
        else deprecated.push(annotation)
      }
    })
    expect(deprecated.length).toBeGreaterThanOrEqual(13)
    const page = await app.handler(new Request("http://localhost:8080/docs/migration"))
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    const html = await page.text()
    expect(html).not.toContain("<script")
    expect(html).not.toContain("no replacement documented")
    const rows = [...html.matchAll(/<tr><td><code>([^<]+)<\/code><\/td><td><code>([^<]+)<\/code><\/td>/g)]
      .map(([, from, to]) => [from, to] as const)
    for (const operation of deprecated) {
      const row = rows.find(([from]) => from === escapeHtml(operation))
      expect(row, operation).toBeDefined()
      // The replacement is a current operation the API serves.
      expect(operations.has(row?.[1] ?? ""), `${operation} → ${row?.[1]}`).toBe(true)
    }
    // The deprecation Link of a previous-generation answer leads here.
    const legacy = await app.call("GET", "/api/v2/customisers")
    expect(legacy.headers.get("link")).toContain("/docs/migration>; rel=deprecation")
  })

  it("list every legacy enum spelling next to its canonical value, and side-by-side examples", async () => {
    const html = await app.handlerText("/docs/migration")
    const definitions = enumDefinitions()
    expect(definitions.length).toBeGreaterThan(5)
    for (const definition of definitions) {
      for (const spelling of definition.legacyValues) {
        // Enumerations spelled the same on both generations have nothing to migrate.
        if (definition.isCanonical(spelling)) continue
        const canonical = definition.toCanonical(spelling).value
        const row = new RegExp(`<td><code>${definition.name}</code></td><td><code>${canonical}</code>[^<]*</td><td>[^]*?<code>${spelling}</code>`)
        expect(html, `${definition.name}: ${spelling}`).toMatch(row)
      }
    }
    for (const heading of ["Read pricing", "Replace pricing", "Create an order (v2 custom integration)", "Create an order (unversioned)"]) {
      expect(html).toContain(heading)
    }
    expect(html).toContain("migrate usage")
    expect(html).toContain("/deprecated-usage")
    for (const header of ["deprecation: @", "sunset: ", "link: &lt;"]) expect(html).toContain(header)
  })

  it("serve a webhooks guide with every topic, its headers and the worker's retry schedule", async () => {
    const html = await app.handlerText("/docs/webhooks")
    expect(html).not.toContain("<script")
    for (const topic of WEBHOOK_TOPICS) {
      expect(html).toContain(`<code>${topic}</code>`)
      expect(html).toContain(`x-webhook-topic: ${topic}`)
    }
    for (const header of ["x-webhook-id", "x-webhook-timestamp", "x-webhook-signature", "user-agent"]) expect(html).toContain(header)
    const base = defaultSettings().webhookRetryBaseMs
    for (let failed = 1; failed <= 11; failed++) expect(html).toContain(`<td>${formatDelay(retryCeilingMs(failed, base))}</td>`)
    expect(formatDelay(retryCeilingMs(1, base))).toBe("30 s")
    expect(formatDelay(retryCeilingMs(10, base))).toBe("4 h 16 min")
    for (const recipe of [TYPESCRIPT_RECIPE, PYTHON_RECIPE, SHELL_RECIPE]) expect(html).toContain(escapeHtml(recipe))
  })

  it("map fields the way the service's translators do, wherever a row names two plain paths", () => {
    const succeeded = <A>(result: Result.Result<A, unknown>): A => {
      if (Result.isFailure(result)) throw new Error(`translation failed: ${JSON.stringify(result.failure)}`)
      return result.success
    }
    // `a.b[].c` → the value at a.b[0].c.
    const at = (value: unknown, path: string): unknown =>
      path.split(".").reduce<unknown>((node, segment) => {
        const key = segment.replace(/\[\]$/, "")
        const child = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined
        return segment.endsWith("[]") && Array.isArray(child) ? child[0] : child
      }, value)
    const v3Pricing = {
      ...SAMPLE_PRICING,
      sheet_pricing: { rows: [{ width_limit_cm: 50, height_limit_cm: 40, base_price: 1200, price_per_sq_cm: 0.5 }] }
    }
    const productSync = {
      product_id: "design-77",
      cart: { text: "Open late", font: { name: "Barcelona" } },
      price_breakdown: {},
      custom_background_path: "https://cdn.example.com/bg.png",
      custom_background_original_path: "https://cdn.example.com/bg-original.png",
      logo_original_path: "https://cdn.example.com/logo.svg"
    }
    const pairs: Readonly<Record<string, readonly [legacy: unknown, v3: unknown]>> = {
      "v2 order": [SAMPLE_V2_ORDER, succeeded(v2OrderToV3(SAMPLE_V2_ORDER, { resolveProductId }))],
      "unversioned order": [SAMPLE_LEGACY_ORDER, succeeded(legacyOrderToV3(SAMPLE_LEGACY_ORDER, { integrationId: 1, resolveProductId }))],
      "product sync": [
        productSync,
        succeeded(legacyProductToV3(productSync, { integrationId: 1, title: "Sign", priceAmount: 100, currency: "USD" }))
      ],
      "v2 pricing": [pricingV3ToV2(v3Pricing), v3Pricing]
    }
    const enums = enumDefinitions()
    const plainPath = /^[A-Za-z_0-9]+(\[\])?(\.[A-Za-z_0-9]+(\[\])?)*$/
    let checked = 0
    for (const [where, legacyPath, v3Path] of FIELD_MAP) {
      if (!plainPath.test(legacyPath) || !plainPath.test(v3Path)) continue
      const pair = pairs[where]
      expect(pair, where).toBeDefined()
      const legacy = at(pair?.[0], legacyPath)
      const v3 = at(pair?.[1], v3Path)
      expect(legacy, `${where} ${legacyPath}`).toBeDefined()
      expect(v3, `${where} ${v3Path}`).toBeDefined()
      // Same value, the same value in its other spelling, or a renamed list of as many (renamed) items.
      const sameValue = JSON.stringify(legacy) === JSON.stringify(v3) ||
        (Array.isArray(legacy) && Array.isArray(v3) && legacy.length === v3.length) ||
        (typeof legacy === "string" && enums.some((definition) => definition.toCanonical(legacy).value === v3 && legacy !== v3))
      expect(sameValue, `${where}: ${legacyPath} ${JSON.stringify(legacy)} → ${v3Path} ${JSON.stringify(v3)}`).toBe(true)
      checked++
    }
    expect(checked).toBeGreaterThanOrEqual(20)
  })

  describe("the documented verification recipes, run against a delivery signed by the service's signer", () => {
    const secret = "whsec_test_9f8e7d6c"
    // Non-ASCII on purpose: the signature covers the UTF-8 bytes.
    const body = JSON.stringify({ order: { order_id: 5001, external_id: "gid://shop/Order/777", note: "Café ✓" } })
    let dir: string
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), "signcraft-recipes-"))
      writeFileSync(join(dir, "verify.sh"), SHELL_RECIPE)
      writeFileSync(
        join(dir, "verify.py"),
        `${PYTHON_RECIPE}
import sys
ok = verify_webhook(sys.stdin.buffer.read(), sys.argv[2], sys.argv[3], sys.argv[1])
` +
          `print("valid" if ok else "invalid")
sys.exit(0 if ok else 1)
`
      )
    })
    afterAll(() => rmSync(dir, { recursive: true, force: true }))

    const run = (command: string, script: string, args: ReadonlyArray<string>, input: string) => {
      try {
        return { output: execFileSync(command, [join(dir, script), ...args], { input, encoding: "utf8" }).trim(), code: 0 }
      } catch (error) {
        const failed = error as { stdout?: string; status?: number }
        return { output: String(failed.stdout ?? "").trim(), code: failed.status ?? -1 }
      }
    }
    const cases = (now: Date) => {
      const headers = signatureHeaders(secret, body, now)
      return { timestamp: headers["x-webhook-timestamp"], signature: headers["x-webhook-signature"] }
    }

    for (const [command, script] of [["bash", "verify.sh"], ["python3", "verify.py"]] as const) {
      it(`${command}: valid for the signed body, invalid when tampered, stale or signed with another secret`, () => {
        const { timestamp, signature } = cases(new Date())
        expect(run(command, script, [secret, timestamp, signature], body)).toEqual({ output: "valid", code: 0 })
        expect(run(command, script, [secret, timestamp, signature.toUpperCase()], body)).toEqual({ output: "valid", code: 0 })
        const tampered = body.replace("5001", "5002")
        expect(run(command, script, [secret, timestamp, signature], tampered)).toEqual({ output: "invalid", code: 1 })
        expect(run(command, script, [secret, timestamp, signature], `${body}\n`)).toEqual({ output: "invalid", code: 1 })
        expect(run(command, script, ["another-secret", timestamp, signature], body)).toEqual({ output: "invalid", code: 1 })
        const stale = cases(new Date(Date.now() - 3600_000))
        expect(run(command, script, [secret, stale.timestamp, stale.signature], body)).toEqual({ output: "invalid", code: 1 })
        expect(run(command, script, [secret, "12ab", signature], body)).toEqual({ output: "invalid", code: 1 })
      })
    }
  })
})
