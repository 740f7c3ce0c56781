import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as oauth from "oauth4webapi"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { toNodeListener } from "@signcraft/adapters"
import { SCOPES } from "../../src/domain/credentials/scopes.js"
import { embeddedVariant, type TestDatabase } from "@signcraft/test-kit"
import { close, connectWithMcpSdk, consentByForms, listen, type Merchant, startReceiver } from "@signcraft/test-kit/agent-clients"
import { browserLeg, CHROMIUM_FLAGS } from "@signcraft/test-kit/chromium"
import { startOAuthApp } from "@signcraft/test-kit/oauth"
import { SCOPE_DESCRIPTIONS } from "../../src/domain/credentials/scope-descriptions.js"
import { isScope } from "../../src/domain/credentials/scopes.js"

const browser = browserLeg()

/** Opens the authorization URL in headless Chromium (fresh profile) and clicks through sign-in and consent. */
const consentByChromium = async (
  authorizationUrl: string,
  merchant: Merchant,
  callback: Promise<string>
): Promise<string> => {
  const { chromium } = await import("playwright-core")
  const profile = mkdtempSync(join(tmpdir(), "signcraft-chromium-"))
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: "executablePath" in browser ? browser.executablePath : "",
    args: [...CHROMIUM_FLAGS],
    headless: true
  })
  try {
    const page = await context.newPage()
    await page.goto(authorizationUrl)
    await page.getByLabel("Email", { exact: true }).fill(merchant.email)
    await page.getByLabel("Password", { exact: true }).fill(merchant.password)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "Approve" }).waitFor({ timeout: 30_000 })
    expect(await page.getByText("Unverified", { exact: true }).count()).toBe(1)
    const requested = (new URL(authorizationUrl).searchParams.get("scope") ?? "").split(" ").filter(isScope)
    for (const scope of requested) {
      // Each permission is a checkbox named by what it allows, in plain words.
      expect(await page.getByRole("checkbox", { name: SCOPE_DESCRIPTIONS[scope] }).isChecked()).toBe(true)
    }
    // What the person sees: a screenshot of the consent screen, and the text it shows.
    const shot = await page.screenshot({ fullPage: true })
    expect(shot.subarray(1, 4).toString("latin1")).toBe("PNG")
    expect(shot.length).toBeGreaterThan(10_000)
    writeFileSync(join(tmpdir(), "signcraft-consent-screen.png"), shot)
    // biome-ignore lint/performance/useDomNodeTextContent: only text the page shows counts
    const shown = await page.evaluate(() => document.body.innerText)
    expect(shown).toContain("signcraft")
    expect(shown).toContain(`Signed in as ${merchant.email}`)
    expect(shown).toContain("Unverified: this app registered itself")
    expect(shown).toContain(`You will be sent back to ${new URL(new URL(authorizationUrl).searchParams.get("redirect_uri") ?? "").host}`)
    await page.getByRole("button", { name: "Approve" }).click()
    return await callback
  } finally {
    await context.close()
    rmSync(profile, { recursive: true, force: true })
  }
}

const drivers = [
  { name: "form posts", browser: false },
  { name: "headless Chromium", browser: true }
] as const

describe.each([
  { name: "/mcp on the base URL", separate: false, basePath: "" },
  { name: "a separate agent origin", separate: true, basePath: "" },
  { name: "/signs/mcp under the base URL's path /signs", separate: false, basePath: "/signs" }
])("real clients against real listeners: $name", ({ separate, basePath }) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>
  const servers: Array<Server> = []
  let baseUrl = ""
  let agentUrl = ""

  beforeAll(async () => {
    db = await embeddedVariant.create()
    const main = createServer()
    servers.push(main)
    baseUrl = `http://127.0.0.1:${await listen(main)}${basePath}`
    let mcpUrl: string | undefined
    if (separate) {
      const agent = createServer()
      servers.push(agent)
      mcpUrl = `http://127.0.0.1:${await listen(agent)}`
    }
    app = startOAuthApp(db.config, { baseUrl, mcpUrl })
    await app.ready()
    main.on("request", toNodeListener(app.handlers.main))
    if (separate && mcpUrl !== undefined && app.handlers.agent !== undefined) {
      servers[1]?.on("request", toNodeListener(app.handlers.agent))
    }
    agentUrl = app.agentUrl
  })
  afterAll(async () => {
    for (const server of servers) await close(server)
    await app.dispose()
    await db.cleanup()
  })

  it("publishes protected-resource metadata whose resource is the URL serving it (oauth4webapi's check)", async () => {
    const resource = new URL(agentUrl)
    const metadata = await oauth.processResourceDiscoveryResponse(
      resource,
      await oauth.resourceDiscoveryRequest(resource, { [oauth.allowInsecureRequests]: true })
    )
    expect(new URL(metadata.resource).href).toBe(resource.href)
    expect(metadata.authorization_servers).toEqual([baseUrl])
    const challenge = await fetch(agentUrl, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
    expect(challenge.status).toBe(401)
    const pointer = /resource_metadata="([^"]+)"/.exec(challenge.headers.get("www-authenticate") ?? "")?.[1] ?? ""
    expect(new URL(pointer).origin).toBe(resource.origin)
    expect((await (await fetch(pointer)).json()).resource).toBe(metadata.resource)
  })

  it.for(drivers)("oauth4webapi: discovery, registration, PKCE, exchange, refresh, revocation (consent by $name)", async (driver, ctx) => {
    if (driver.browser && "skip" in browser) ctx.skip(browser.skip)
    const merchant = await app.seedMerchant()
    const receiver = await startReceiver()
    try {
      const issuer = new URL(baseUrl)
      const insecure = { [oauth.allowInsecureRequests]: true }
      const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }))
      expect(as.authorization_response_iss_parameter_supported).toBe(false)
      const client = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(as, {
          client_name: "oauth4webapi agent",
          redirect_uris: [receiver.redirectUri],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: "none"
        }, insecure)
      )
      const verifier = oauth.generateRandomCodeVerifier()
      const state = oauth.generateRandomState()
      const url = new URL(as.authorization_endpoint ?? "")
      url.search = new URLSearchParams({
        response_type: "code",
        client_id: client.client_id,
        redirect_uri: receiver.redirectUri,
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: "S256",
        scope: "store:read pricing:read",
        state,
        resource: agentUrl
      }).toString()
      const callback = driver.browser
        ? await consentByChromium(url.toString(), merchant, receiver.next())
        : await consentByForms(url.toString(), merchant)
      const params = oauth.validateAuthResponse(as, client, new URL(callback), state)
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, receiver.redirectUri, verifier, {
          additionalParameters: { resource: agentUrl },
          ...insecure
        })
      )
      expect(tokens.token_type).toBe("bearer")
      expect(tokens.expires_in).toBe(3600)
      expect(tokens.scope).toBe("store:read pricing:read")
      const refreshToken = tokens.refresh_token ?? ""
      const refreshed = await oauth.processRefreshTokenResponse(
        as,
        client,
        await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure)
      )
      expect(refreshed.refresh_token).not.toBe(refreshToken)

      const call = (token: string) =>
        fetch(agentUrl, {
          method: "POST",
          headers: {
            authorization: `Bearer ${token}`,
            "content-type": "application/json",
            accept: "application/json, text/event-stream"
          },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_store", arguments: {} } })
        })
      const store = await (await call(refreshed.access_token)).json()
      expect(store.result.structuredContent).toEqual({ id: merchant.storeIds[0], platform: "shopify", scopes: ["store:read", "pricing:read"] })

      await oauth.processRevocationResponse(await oauth.revocationRequest(as, client, oauth.None(), refreshed.access_token, insecure))
      expect((await call(refreshed.access_token)).status).toBe(401)
    } finally {
      await receiver.close()
    }
  })

  it.for(drivers)("the official MCP SDK client connects with its own discovery, registration, PKCE and exchange (consent by $name)", async (driver, ctx) => {
    if (driver.browser && "skip" in browser) ctx.skip(browser.skip)
    const merchant = await app.seedMerchant(1, "woocommerce")
    const receiver = await startReceiver()
    try {
      const client = await connectWithMcpSdk(agentUrl, receiver.redirectUri, async (url) => {
        expect(url.startsWith(`${baseUrl}/oauth/authorize?`)).toBe(true)
        expect(new URL(url).searchParams.get("code_challenge_method")).toBe("S256")
        return driver.browser ? await consentByChromium(url, merchant, receiver.next()) : await consentByForms(url, merchant)
      })
      const listed = await client.listTools()
      expect(listed.tools.map((tool) => tool.name)).toContain("get_store")
      const result = await client.callTool({ name: "get_store", arguments: {} })
      expect(result.isError).toBeFalsy()
      expect(result.structuredContent).toEqual({ id: merchant.storeIds[0], platform: "woocommerce", scopes: [...SCOPES] })
      await client.close()
    } finally {
      await receiver.close()
    }
  })
})
