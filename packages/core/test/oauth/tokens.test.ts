import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AccessTokenSigner } from "../../src/services/oauth/tokens.js"
import { Settings } from "../../src/services/settings.js"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { pkce, startOAuthApp } from "@signcraft/test-kit/oauth"

describe.each(databaseVariants())("tokens, revocation and the agent endpoint ($name database)", (variant) => {
  let db: TestDatabase
  let app: ReturnType<typeof startOAuthApp>

  beforeAll(async () => {
    db = await variant.create()
    app = startOAuthApp(db.config)
    await app.ready()
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  /** A code approved for a fresh merchant and client, not yet exchanged. */
  const approvedCode = async () => {
    const merchant = await app.seedMerchant()
    const client = await app.newClient()
    const { verifier, challenge } = pkce()
    const flow = await app.consent({ ...client, merchant, challenge })
    return { merchant, client, verifier, code: new URL(flow.location).searchParams.get("code") ?? "" }
  }
  const exchange = (
    c: Awaited<ReturnType<typeof approvedCode>>,
    overrides: Record<string, string | ReadonlyArray<string> | undefined> = {}
  ) => {
    const params: Record<string, string | ReadonlyArray<string>> = {}
    const all = {
      grant_type: "authorization_code",
      client_id: c.client.clientId,
      code: c.code,
      code_verifier: c.verifier,
      redirect_uri: c.client.redirectUri,
      ...overrides
    }
    for (const [name, value] of Object.entries(all)) if (value !== undefined) params[name] = value
    return app.formJson("/oauth/token", params)
  }
  const refresh = (clientId: string, refreshToken: string, extra: Record<string, string> = {}) =>
    app.formJson("/oauth/token", { grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken, ...extra })
  const getStore = (token: string) => app.mcp(token, "tools/call", { name: "get_store", arguments: {} })

  describe("code exchange", () => {
    it("issues a Bearer access token (60 min), a refresh token and the granted scope, never cached", async () => {
      const c = await approvedCode()
      const res = await exchange(c, { resource: app.agentResource })
      expect(res.status).toBe(200)
      expect(res.headers.get("cache-control")).toBe("no-store")
      expect(res.body).toEqual({
        access_token: expect.stringMatching(/^ey[\w-]+\.[\w-]+\.[\w-]+$/),
        token_type: "Bearer",
        expires_in: 3600,
        refresh_token: expect.stringMatching(/^sc_rt_/),
        scope: "store:read"
      })
      expect((await getStore(res.body.access_token)).body.result.structuredContent.id).toBe(c.merchant.storeIds[0])
    })

    it("refuses a reused code with invalid_grant and revokes what the first exchange issued", async () => {
      const c = await approvedCode()
      const first = await exchange(c)
      expect(first.status).toBe(200)
      const again = await exchange(c)
      expect(again.status).toBe(400)
      expect(again.body).toEqual({ error: "invalid_grant", error_description: expect.any(String) })
      expect((await getStore(first.body.access_token)).status).toBe(401)
      expect((await refresh(c.client.clientId, first.body.refresh_token)).body.error).toBe("invalid_grant")
    })

    it("revokes the code on a wrong verifier: the correct verifier afterwards is refused too", async () => {
      const c = await approvedCode()
      const wrong = await exchange(c, { code_verifier: pkce().verifier })
      expect(wrong.status).toBe(400)
      expect(wrong.body.error).toBe("invalid_grant")
      expect((await exchange(c)).body.error).toBe("invalid_grant")
    })

    it.each([
      ["a missing verifier", { code_verifier: undefined }, "invalid_grant"],
      ["another redirect URI", { redirect_uri: "http://127.0.0.1:7777/other" }, "invalid_grant"],
      ["another resource", { resource: "http://localhost:8080/api/v3" }, "invalid_target"]
    ])("refuses %s and revokes the code", async (_name, overrides, error) => {
      const c = await approvedCode()
      const res = await exchange(c, overrides)
      expect(res.status).toBe(400)
      expect(res.body.error).toBe(error)
      expect((await exchange(c)).body.error).toBe("invalid_grant")
    })

    it("refuses a code presented by another client, and revokes it", async () => {
      const c = await approvedCode()
      const other = await app.newClient()
      const res = await exchange(c, { client_id: other.clientId })
      expect(res.body.error).toBe("invalid_grant")
      expect((await exchange(c)).body.error).toBe("invalid_grant")
    })

    it.each([
      ["no client_id", { client_id: undefined }, 401, "invalid_client"],
      ["an unknown client_id", { client_id: "sc_client_nope" }, 401, "invalid_client"],
      ["a client secret", { client_secret: "s3cret" }, 401, "invalid_client"],
      ["an unsupported grant type", { grant_type: "client_credentials" }, 400, "unsupported_grant_type"],
      ["a repeated parameter", { code: ["a", "b"] }, 400, "invalid_request"]
    ])("answers %s with %s %s", async (_name, overrides, status, error) => {
      const c = await approvedCode()
      const res = await exchange(c, overrides)
      expect(res.status).toBe(status)
      expect(res.body.error).toBe(error)
    })

    it("wants a form body", async () => {
      const res = await app.json("/oauth/token", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "authorization_code" })
      })
      expect(res.status).toBe(400)
      expect(res.body.error).toBe("invalid_request")
    })
  })

  describe("refresh", () => {
    it("rotates on every use, carrying the Store and resource binding forward", async () => {
      const { client, tokens, merchant } = await app.connect()
      const next = await refresh(client.clientId, tokens.refresh_token, { resource: app.agentResource })
      expect(next.status).toBe(200)
      expect(next.body.refresh_token).not.toBe(tokens.refresh_token)
      expect(next.body.access_token).not.toBe(tokens.access_token)
      expect(next.body.scope).toBe("store:read")
      expect((await getStore(next.body.access_token)).body.result.structuredContent.id).toBe(merchant.storeIds[0])
      const third = await refresh(client.clientId, next.body.refresh_token)
      expect(third.status).toBe(200)
    })

    it("treats reuse of a rotated refresh token as theft: the whole grant is revoked", async () => {
      const { client, tokens } = await app.connect()
      const next = await refresh(client.clientId, tokens.refresh_token)
      expect(next.status).toBe(200)
      const reused = await refresh(client.clientId, tokens.refresh_token)
      expect(reused.status).toBe(400)
      expect(reused.body.error).toBe("invalid_grant")
      expect((await getStore(next.body.access_token)).status).toBe(401)
      expect((await refresh(client.clientId, next.body.refresh_token)).body.error).toBe("invalid_grant")
    })

    it("refuses another resource with invalid_target, and another client's refresh token", async () => {
      const { client, tokens } = await app.connect()
      expect((await refresh(client.clientId, tokens.refresh_token, { resource: "https://evil.example/mcp" })).body.error)
        .toBe("invalid_target")
      const other = await app.newClient()
      expect((await refresh(other.clientId, tokens.refresh_token)).body.error).toBe("invalid_grant")
      // Neither refusal used the token up.
      expect((await refresh(client.clientId, tokens.refresh_token)).status).toBe(200)
    })

    it("may narrow the scopes, never widen them", async () => {
      const { client, tokens } = await app.connect({ scopes: ["store:read", "pricing:read"] })
      expect((await refresh(client.clientId, tokens.refresh_token, { scope: "store:read orders:write" })).body.error)
        .toBe("invalid_scope")
      const narrowed = await refresh(client.clientId, tokens.refresh_token, { scope: "store:read" })
      expect(narrowed.body.scope).toBe("store:read")
    })
  })

  describe("one transaction per state change", () => {
    /**
     * Makes every `event` on `table` for `clientId`'s rows fail while `during` runs: a crash
     * between two steps of one state change.
     */
    const failingWrite = async <A>(
      table: "oauth_access_tokens" | "oauth_refresh_tokens",
      event: "INSERT" | "UPDATE",
      clientId: string,
      during: () => Promise<A>
    ): Promise<A> => {
      expect(clientId).toMatch(/^[\w-]+$/)
      const trigger = `fail_${event.toLowerCase()}_${table}_${clientId.replace(/-/g, "_")}`
      await app.runSql(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql.unsafe(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$
          BEGIN RAISE EXCEPTION 'injected failure'; END $$`)
        yield* sql.unsafe(`CREATE TRIGGER ${trigger} BEFORE ${event} ON ${table} FOR EACH ROW
          WHEN (NEW.client_id = '${clientId}') EXECUTE FUNCTION ${trigger}()`)
      }))
      try {
        return await during()
      } finally {
        await app.runSql(Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql.unsafe(`DROP TRIGGER ${trigger} ON ${table}`)
          yield* sql.unsafe(`DROP FUNCTION ${trigger}()`)
        }))
      }
    }
    /** Makes every access-token insert of `clientId` fail while `during` runs. */
    const failingAccessTokenInsert = <A>(clientId: string, during: () => Promise<A>): Promise<A> =>
      failingWrite("oauth_access_tokens", "INSERT", clientId, during)
    const refreshTokensOf = (clientId: string) =>
      app.runSql(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ rotated: boolean; revoked: boolean }>`
          SELECT rotated_at IS NOT NULL AS rotated, revoked_at IS NOT NULL AS revoked
          FROM oauth_refresh_tokens WHERE client_id = ${clientId}`
      }))

    it("leaves the code unexchanged when issuing the pair fails half-way", async () => {
      const c = await approvedCode()
      const failed = await failingAccessTokenInsert(c.client.clientId, () => exchange(c))
      expect(failed.status).toBeGreaterThanOrEqual(500)
      expect(await refreshTokensOf(c.client.clientId)).toEqual([])
      const retried = await exchange(c)
      expect(retried.status).toBe(200)
      expect((await getStore(retried.body.access_token)).status).toBe(200)
    })

    it("leaves the old refresh token unrotated and nothing half-written when a rotation fails half-way", async () => {
      const { client, tokens } = await app.connect()
      const failed = await failingAccessTokenInsert(client.clientId, () => refresh(client.clientId, tokens.refresh_token))
      expect(failed.status).toBeGreaterThanOrEqual(500)
      expect(await refreshTokensOf(client.clientId)).toEqual([{ rotated: false, revoked: false }])
      // Not a reuse: the old token still rotates, and the connection stays usable.
      const retried = await refresh(client.clientId, tokens.refresh_token)
      expect(retried.status).toBe(200)
      expect((await getStore(retried.body.access_token)).status).toBe(200)
    })

    it("still commits a refusal's changes: a failed exchange revokes the code, a reuse revokes the grant", async () => {
      const c = await approvedCode()
      expect((await exchange(c, { code_verifier: pkce().verifier })).body.error).toBe("invalid_grant")
      expect((await exchange(c)).body.error).toBe("invalid_grant")
      const { client, tokens } = await app.connect()
      expect((await refresh(client.clientId, tokens.refresh_token)).status).toBe(200)
      expect((await refresh(client.clientId, tokens.refresh_token)).body.error).toBe("invalid_grant")
      expect(await refreshTokensOf(client.clientId)).toEqual(expect.arrayContaining([{ rotated: false, revoked: true }]))
    })

    it("leaves the grant live when a client's revocation fails half-way", async () => {
      const { client, tokens } = await app.connect()
      const failed = await failingWrite("oauth_refresh_tokens", "UPDATE", client.clientId, () =>
        app.formJson("/oauth/revoke", { client_id: client.clientId, token: tokens.access_token }))
      expect(failed.status).toBeGreaterThanOrEqual(500)
      expect((await getStore(tokens.access_token)).status).toBe(200)
      expect(await refreshTokensOf(client.clientId)).toEqual([{ rotated: false, revoked: false }])
    })

    it("leaves the grant live when a reuse revocation fails half-way, and revokes it on the next reuse", async () => {
      const { client, tokens } = await app.connect()
      const rotated = await refresh(client.clientId, tokens.refresh_token)
      expect(rotated.status).toBe(200)
      const failed = await failingWrite("oauth_access_tokens", "UPDATE", client.clientId, () =>
        refresh(client.clientId, tokens.refresh_token))
      expect(failed.status).toBeGreaterThanOrEqual(500)
      expect((await getStore(rotated.body.access_token)).status).toBe(200)
      expect((await refresh(client.clientId, tokens.refresh_token)).body.error).toBe("invalid_grant")
      expect((await getStore(rotated.body.access_token)).status).toBe(401)
    })

    it("leaves the connection live when the merchant's revocation fails half-way", async () => {
      const merchant = await app.seedMerchant()
      const { client, tokens } = await app.connect({ merchant })
      const list = await app.operator("GET", `/stores/${merchant.storeIds[0]}/connections`)
      const id = list.body.data[0].id
      const failed = await failingWrite("oauth_refresh_tokens", "UPDATE", client.clientId, () =>
        app.operator("DELETE", `/connections/${id}`))
      expect(failed.status).toBeGreaterThanOrEqual(500)
      expect((await getStore(tokens.access_token)).status).toBe(200)
      expect((await app.operator("GET", `/stores/${merchant.storeIds[0]}/connections`)).body.data).toHaveLength(1)
    })
  })

  describe("stored expiry", () => {
    const age = (table: "oauth_codes" | "oauth_access_tokens" | "oauth_refresh_tokens") =>
      app.runSql(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE ${sql(table)} SET expires_at = now() - interval '1 second'`
      }))

    it("refuses an expired code, an access token past its stored expiry (its JWT still unexpired), and an expired refresh token", async () => {
      const c = await approvedCode()
      await age("oauth_codes")
      expect((await exchange(c)).body.error).toBe("invalid_grant")

      const { client, tokens } = await app.connect()
      expect((await getStore(tokens.access_token)).status).toBe(200)
      await age("oauth_access_tokens")
      const expired = await getStore(tokens.access_token)
      expect(expired.status).toBe(401)
      expect(expired.headers.get("www-authenticate")).toContain("expired")
      await age("oauth_refresh_tokens")
      expect((await refresh(client.clientId, tokens.refresh_token)).body.error).toBe("invalid_grant")
    })

    it("lives 10 minutes (codes), 60 minutes (access) and 30 days (refresh)", async () => {
      await app.connect()
      const lifetimes = await app.runSql(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const seconds = (table: string) =>
          sql<{ s: number }>`SELECT round(extract(epoch FROM max(expires_at - created_at)))::int AS s FROM ${sql(table)}`
        return {
          code: (yield* seconds("oauth_codes"))[0]?.s,
          access: (yield* seconds("oauth_access_tokens"))[0]?.s,
          refresh: (yield* seconds("oauth_refresh_tokens"))[0]?.s
        }
      }))
      expect(lifetimes).toEqual({ code: 600, access: 3600, refresh: 30 * 24 * 3600 })
    })

    it("keeps verifying tokens signed with an older key after a rotation", async () => {
      const signer = AccessTokenSigner.layer.pipe(Layer.provide(Layer.succeed(Settings, app.settings)))
      const claims = { jti: "at_rotation", sub: "1", client_id: "c", aud: app.agentResource, scope: "store:read" }
      const result = await app.runSql(Effect.gen(function*() {
        const tokens = yield* AccessTokenSigner
        const before = yield* tokens.sign(claims, Math.floor(Date.now() / 1000) + 60)
        const kid = yield* tokens.rotate
        const after = yield* tokens.sign(claims, Math.floor(Date.now() / 1000) + 60)
        const kidOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[0] ?? "", "base64url").toString()).kid
        return {
          kids: [kidOf(before), kidOf(after)],
          kid,
          verified: [(yield* tokens.verify(before)).jti, (yield* tokens.verify(after)).jti]
        }
      }).pipe(Effect.provide(signer)))
      expect(result.kids[1]).toBe(result.kid)
      expect(result.kids[0]).not.toBe(result.kid)
      expect(result.verified).toEqual(["at_rotation", "at_rotation"])
    })
  })

  describe("retired signing keys", () => {
    it("stop verifying once no token they signed can still be live, while the newer key's tokens verify", async () => {
      const settings = Layer.succeed(Settings, app.settings)
      const claims = { jti: "at_retired", sub: "1", client_id: "c", aud: app.agentResource, scope: "store:read" }
      const signed = await app.runSql(Effect.gen(function*() {
        const tokens = yield* AccessTokenSigner
        // Keys of this test's own: the app's signing key is left as it is, so the app, which may
        // keep signing with it for a while, goes on verifying what it signs.
        const oldKid = yield* tokens.rotate
        const old = yield* tokens.sign(claims, Math.floor(Date.now() / 1000) + 600)
        const kid = yield* tokens.rotate
        const fresh = yield* tokens.sign(claims, Math.floor(Date.now() / 1000) + 600)
        return { old, fresh, kid, oldKid }
      }).pipe(Effect.provide(AccessTokenSigner.layer.pipe(Layer.provide(settings)))))
      // The newer key took over three hours ago: every token the old one signed has expired since.
      // Both now predate the app's key, which stays the newest.
      const verdicts = await app.runSql(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE oauth_signing_keys SET created_at = now() - interval '3 hours' WHERE kid = ${signed.kid}`
        yield* sql`UPDATE oauth_signing_keys SET created_at = now() - interval '4 hours' WHERE kid = ${signed.oldKid}`
        // Another process, with nothing cached, judges both tokens.
        return yield* Effect.gen(function*() {
          const tokens = yield* AccessTokenSigner
          const verdict = (jwt: string) =>
            tokens.verify(jwt).pipe(Effect.match({ onFailure: (e) => e.description, onSuccess: () => "verified" }))
          return { old: yield* verdict(signed.old), fresh: yield* verdict(signed.fresh) }
        }).pipe(Effect.provide(AccessTokenSigner.layer.pipe(Layer.provide(settings))))
      }))
      expect(verdicts).toEqual({ old: "The bearer token was not signed by this server.", fresh: "verified" })
    })
  })

  describe("revocation (RFC 7009)", () => {
    it("revoking the access token revokes its refresh token too", async () => {
      const { client, tokens } = await app.connect()
      const res = await app.formJson("/oauth/revoke", { client_id: client.clientId, token: tokens.access_token })
      expect(res.status).toBe(200)
      expect((await getStore(tokens.access_token)).status).toBe(401)
      expect((await refresh(client.clientId, tokens.refresh_token)).body.error).toBe("invalid_grant")
    })

    it("revoking the refresh token revokes its access token too", async () => {
      const { client, tokens } = await app.connect()
      const res = await app.formJson("/oauth/revoke", {
        client_id: client.clientId,
        token: tokens.refresh_token,
        token_type_hint: "refresh_token"
      })
      expect(res.status).toBe(200)
      expect((await getStore(tokens.access_token)).status).toBe(401)
      expect((await refresh(client.clientId, tokens.refresh_token)).body.error).toBe("invalid_grant")
    })

    it("answers 200 for unknown tokens and changes nothing for another client's token", async () => {
      const { client, tokens } = await app.connect()
      expect((await app.formJson("/oauth/revoke", { client_id: client.clientId, token: "sc_rt_unknown" })).status).toBe(200)
      expect((await app.formJson("/oauth/revoke", { client_id: client.clientId, token: "a.b.c" })).status).toBe(200)
      const other = await app.newClient()
      expect((await app.formJson("/oauth/revoke", { client_id: other.clientId, token: tokens.access_token })).status).toBe(200)
      expect((await getStore(tokens.access_token)).status).toBe(200)
    })

    it("refuses an unknown client and a missing token", async () => {
      expect((await app.formJson("/oauth/revoke", { client_id: "sc_client_nope", token: "x" })).body.error).toBe("invalid_client")
      const client = await app.newClient()
      expect((await app.formJson("/oauth/revoke", { client_id: client.clientId })).body.error).toBe("invalid_request")
    })
  })

  describe("the merchant's side", () => {
    it("lists live connections and revokes one: every token and unexchanged code of it", async () => {
      const merchant = await app.seedMerchant()
      const storeId = merchant.storeIds[0]
      const { client, tokens } = await app.connect({ merchant, scopes: ["store:read", "pricing:read"] })
      const list = await app.operator("GET", `/stores/${storeId}/connections`)
      expect(list.status).toBe(200)
      expect(list.body.data).toEqual([{
        id: expect.any(Number),
        client_id: client.clientId,
        client_name: "Test Agent",
        person_id: merchant.personId,
        scopes: ["store:read", "pricing:read"],
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/)
      }])
      const id = list.body.data[0].id
      expect((await app.operator("DELETE", `/connections/${id}`)).status).toBe(204)
      expect((await getStore(tokens.access_token)).status).toBe(401)
      expect((await refresh(client.clientId, tokens.refresh_token)).body.error).toBe("invalid_grant")
      expect((await app.operator("GET", `/stores/${storeId}/connections`)).body.data).toEqual([])
      expect((await app.operator("DELETE", `/connections/${id}`)).status).toBe(404)
    })

    it("revokes a connection's unexchanged code", async () => {
      const c = await approvedCode()
      const list = await app.operator("GET", `/stores/${c.merchant.storeIds[0]}/connections`)
      expect(list.body.data).toHaveLength(1)
      expect((await app.operator("DELETE", `/connections/${list.body.data[0].id}`)).status).toBe(204)
      expect((await exchange(c)).body.error).toBe("invalid_grant")
    })

    it("answers 404 for the connections of an unknown Store", async () => {
      expect((await app.operator("GET", "/stores/999999/connections")).status).toBe(404)
    })

    it("makes the grant unusable once the approving person leaves the Store's company", async () => {
      const merchant = await app.seedMerchant()
      const { client, tokens } = await app.connect({ merchant })
      expect((await getStore(tokens.access_token)).status).toBe(200)
      expect((await app.operator("DELETE", `/companies/${merchant.companyId}/members/${merchant.personId}`)).status).toBe(204)
      const res = await getStore(tokens.access_token)
      expect(res.status).toBe(401)
      expect(res.headers.get("www-authenticate")).toContain(`error="invalid_token"`)
      expect((await refresh(client.clientId, tokens.refresh_token)).body.error).toBe("invalid_grant")
      // Not merely blocked: revoked, so no later membership can bring the grant back.
      const grants = await app.runSql(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ reason: string | null; live: number }>`
          SELECT g.revoked_reason AS reason,
            (SELECT count(*)::int FROM oauth_refresh_tokens r WHERE r.grant_id = g.id AND r.revoked_at IS NULL) AS live
          FROM oauth_grants g WHERE g.person_id = ${merchant.personId}`
      }))
      expect(grants).toEqual([{ reason: "member_removed", live: 0 }])
      expect((await app.operator("DELETE", `/companies/${merchant.companyId}/members/${merchant.personId}`)).status).toBe(404)
    })
  })

  describe("agent endpoint", () => {
    it("lists its tools", async () => {
      const { tokens } = await app.connect()
      const res = await app.mcp(tokens.access_token, "tools/list")
      expect(res.status).toBe(200)
      expect(res.body.result.tools.map((t: { name: string }) => t.name)).toContain("get_store")
    })

    it("answers a missing scope with a tool result carrying insufficient_scope and required_scopes", async () => {
      const { tokens } = await app.connect({ scopes: ["pricing:read"] })
      const res = await getStore(tokens.access_token)
      expect(res.status).toBe(200)
      expect(res.body.error).toBeUndefined()
      expect(res.body.result.isError).toBe(true)
      expect(res.body.result.structuredContent).toEqual({
        error: "insufficient_scope",
        error_description: expect.any(String),
        required_scopes: ["store:read"],
        granted_scopes: ["pricing:read"]
      })
      expect(JSON.parse(res.body.result.content[0].text).error).toBe("insufficient_scope")
    })

    it("refuses an API key with the 401 challenge", async () => {
      const merchant = await app.seedMerchant()
      const key = await app.operator("POST", `/stores/${merchant.storeIds[0]}/api-keys`, { mode: "live", scopes: ["store:read"] })
      const res = await getStore(key.body.key)
      expect(res.status).toBe(401)
      expect(res.headers.get("www-authenticate")).toContain("resource_metadata=")
    })

    it("refuses a tampered token", async () => {
      const { tokens } = await app.connect()
      const [header, payload, signature] = tokens.access_token.split(".")
      const claims = JSON.parse(Buffer.from(payload ?? "", "base64url").toString())
      const forged = Buffer.from(JSON.stringify({ ...claims, scope: "store:read orders:write" })).toString("base64url")
      expect((await getStore(`${header}.${forged}.${signature}`)).status).toBe(401)
    })

    it("is stateless: GET and DELETE answer 405, and browsers may call it and the token endpoint cross-origin", async () => {
      const { tokens } = await app.connect()
      for (const method of ["GET", "DELETE"]) {
        const res = await app.fetchApp(app.agentUrl, { method, headers: { authorization: `Bearer ${tokens.access_token}` } })
        expect(res.status).toBe(405)
        expect(res.headers.get("allow")).toBe("POST, OPTIONS")
      }
      const preflight = await app.fetchApp("/oauth/token", { method: "OPTIONS" })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get("access-control-allow-origin")).toBe("*")
      expect((await app.fetchApp(app.agentUrl, { method: "OPTIONS" })).status).toBe(204)
    })

    it("is not an /api/v3 credential: a connector token there answers 401", async () => {
      const { tokens } = await app.connect()
      const res = await app.json("/api/v3/stores/me", { headers: { authorization: `Bearer ${tokens.access_token}` } })
      expect(res.status).toBe(401)
      expect(res.body.code).toBe("invalid_api_key")
    })
  })
})
