import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { expect } from "vitest"
import { hiddenFields } from "./oauth.js"

/** Listens on 127.0.0.1, port 0; resolves with the port. */
export const listen = (server: Server) =>
  new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)))
/** Closes a listener. */
export const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

/** Who signs in on the consent screen. */
export type Merchant = { readonly email: string; readonly password: string }

/** Signs in and approves every requested scope with plain HTTP form posts; returns the redirect. */
export const consentByForms = async (authorizationUrl: string, merchant: Merchant): Promise<string> => {
  const jar = new Map<string, string>()
  const remember = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";")
      const at = pair?.indexOf("=") ?? -1
      if (pair !== undefined && at > 0) jar.set(pair.slice(0, at), pair.slice(at + 1))
    }
  }
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ")
  const post = async (url: string, fields: Record<string, string | ReadonlyArray<string>>) => {
    const body = new URLSearchParams()
    for (const [name, value] of Object.entries(fields)) for (const v of typeof value === "string" ? [value] : value) body.append(name, v)
    const response = await fetch(url, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
      body
    })
    remember(response)
    return response
  }
  // Where a page's form posts, as a browser resolves it against the page's URL.
  const actionOf = (html: string) => new URL(/<form method="post" action="([^"]+)">/.exec(html)?.[1] ?? "", authorizationUrl).toString()
  const signIn = await fetch(authorizationUrl, { redirect: "manual" })
  remember(signIn)
  const signInHtml = await signIn.text()
  const signedIn = await post(actionOf(signInHtml), { ...hiddenFields(signInHtml), email: merchant.email, password: merchant.password })
  expect(signedIn.status).toBe(303)
  const consent = await fetch(authorizationUrl, { headers: { cookie: cookie() }, redirect: "manual" })
  const html = await consent.text()
  const scopes = [...html.matchAll(/name="scope" value="([^"]+)"/g)].map((m) => m[1] ?? "")
  const approved = await post(actionOf(html), { ...hiddenFields(html), scope: scopes, decision: "approve" })
  expect(approved.status).toBe(303)
  return approved.headers.get("location") ?? ""
}

/** A redirect-URI receiver on loopback: records the callback the browser is sent to. */
export const startReceiver = async () => {
  const received: Array<string> = []
  const waiters: Array<(url: string) => void> = []
  const server = createServer((req, res) => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${req.url ?? "/"}`
    received.push(url)
    for (const waiter of waiters.splice(0)) waiter(url)
    res.writeHead(200, { "content-type": "text/plain" }).end("You can close this window.")
  })
  const port = await listen(server)
  const next = () => new Promise<string>((resolve) => waiters.push(resolve))
  return { redirectUri: `http://127.0.0.1:${port}/callback`, next, close: () => close(server) }
}


/**
 * Connects the official MCP SDK client to `agentUrl` the way an agent does: the first
 * connect fails with 401, the SDK discovers, registers and builds the PKCE authorization
 * URL; `authorize` walks the consent and returns the callback URL; the SDK exchanges the
 * code, and a second connect succeeds.
 */
export const connectWithMcpSdk = async (
  agentUrl: string,
  redirectUri: string,
  authorize: (authorizationUrl: string) => Promise<string>
): Promise<Client> => {
  let clientInformation: OAuthClientInformationMixed | undefined
  let tokens: OAuthTokens | undefined
  let verifier = ""
  let authorizationUrl: URL | undefined
  const provider: OAuthClientProvider = {
    get redirectUrl() {
      return redirectUri
    },
    get clientMetadata(): OAuthClientMetadata {
      return {
        client_name: "MCP SDK agent",
        redirect_uris: [redirectUri],
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none"
      }
    },
    state: () => "sdk-state",
    clientInformation: () => clientInformation,
    saveClientInformation: (info) => {
      clientInformation = info
    },
    tokens: () => tokens,
    saveTokens: (saved) => {
      tokens = saved
    },
    redirectToAuthorization: (url) => {
      authorizationUrl = url
    },
    saveCodeVerifier: (saved) => {
      verifier = saved
    },
    codeVerifier: () => verifier
  }
  const first = new StreamableHTTPClientTransport(new URL(agentUrl), { authProvider: provider })
  await expect(new Client({ name: "sdk-test", version: "1.0.0" }).connect(first)).rejects.toThrow(/Unauthorized/i)
  const callback = await authorize(authorizationUrl?.toString() ?? "")
  await first.finishAuth(new URL(callback).searchParams.get("code") ?? "")
  expect(tokens?.access_token).toBeDefined()
  const client = new Client({ name: "sdk-test", version: "1.0.0" })
  await client.connect(new StreamableHTTPClientTransport(new URL(agentUrl), { authProvider: provider }))
  return client
}
