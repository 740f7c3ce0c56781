import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { isSealed, nextIv, open, parseKeyring, seal, secretKeyOf } from "../../src/domain/credentials/secret-box.js"
import { CursorKey } from "../../src/services/credentials/cursor-key.js"
import { SecretBox } from "../../src/services/credentials/secret-box.js"
import { defaultSettings, Settings } from "../../src/services/settings.js"
import { sealPlaintextSecrets } from "../../src/services/credentials/secrets-at-rest.js"
import { startApp } from "@signcraft/test-kit"
import { startOAuthApp } from "@signcraft/test-kit/oauth"

// docs/security.md: no stored file or row of the embedded database holds a signing secret in plaintext.
const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

describe("secrets at rest (SECRETS_KEY)", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "signcraft-secrets-"))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it("seals webhook and integration signing secrets, the private signing keys and stored idempotency answers", async () => {
    const app = startOAuthApp({ _tag: "Embedded", location: { dataDir } })
    let secrets: Array<string> = []
    try {
      await app.ready()
      // A connection: the authorization server creates and stores its ES256 signing key.
      const { merchant } = await app.connect({ scopes: ["store:read"] })
      const storeId = merchant.storeIds[0] ?? 0
      const key = await app.operator("POST", `/stores/${storeId}/api-keys`, { mode: "test", scopes: ["webhooks:write"] })
      const subscription = await app.json("/api/v3/webhook-subscriptions", {
        method: "POST",
        headers: { authorization: `Bearer ${key.body.key}`, "content-type": "application/json", "idempotency-key": "seal-me" },
        body: JSON.stringify({ topic: "order:created", url: "http://127.0.0.1:9/hook" })
      })
      expect(subscription.status).toBe(201)
      const integration = await app.operator("POST", `/stores/${storeId}/integrations`, { create_product_url: "http://127.0.0.1:9/cb" })
      expect(integration.status).toBe(201)

      const stored = await app.runSql(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const tables = yield* sql<{ name: string }>`
          SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`
        const rows: Array<string> = []
        for (const { name } of tables) {
          for (const row of yield* sql<{ text: string }>`SELECT t::text AS text FROM ${sql(name)} t`) rows.push(row.text)
        }
        const keys = yield* sql<{ jwk: string }>`SELECT private_jwk #>> '{}' AS jwk FROM oauth_signing_keys`
        return { rows, keys: keys.map((k) => k.jwk) }
      }))
      // The private key's `d`, opened with the key this test deployment derives.
      const box = await Effect.runPromise(
        Effect.service(SecretBox).pipe(Effect.provide(SecretBox.layer.pipe(Layer.provide(Layer.succeed(Settings, defaultSettings({ environment: "test" }))))))
      )
      expect(stored.keys.length).toBeGreaterThan(0)
      const privateParts = stored.keys.map((sealed) => {
        expect(isSealed(sealed)).toBe(true)
        return String(JSON.parse(box.open(sealed)).d)
      })
      secrets = [subscription.body.data.secret, integration.body.signing_secret, ...privateParts]
      for (const secret of secrets) {
        expect(secret.length).toBeGreaterThan(20)
        expect(stored.rows.find((row) => row.includes(secret)), secret).toBeUndefined()
      }
      // The idempotent replay still answers the secret: it is opened on the way out.
      const replay = await app.json("/api/v3/webhook-subscriptions", {
        method: "POST",
        headers: { authorization: `Bearer ${key.body.key}`, "content-type": "application/json", "idempotency-key": "seal-me" },
        body: JSON.stringify({ topic: "order:created", url: "http://127.0.0.1:9/hook" })
      })
      expect(replay.body.data.secret).toBe(subscription.body.data.secret)
    } finally {
      await app.dispose()
    }
    // And no file of the database directory holds one, WAL and all.
    const files = filesUnder(dataDir)
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const bytes = readFileSync(file)
      for (const secret of secrets) expect(bytes.includes(secret), `${file} holds a secret`).toBe(false)
    }
  })

  it("seals, at start, secrets an earlier version stored in plaintext, and leaves them readable", async () => {
    const app = startApp({ _tag: "Embedded", location: "memory" })
    try {
      const { storeId, key } = await app.seedStore({ scopes: ["webhooks:read"] })
      const plaintext = "whsec_stored_before_sealing_0123456789"
      const sealedCount = await app.run(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO webhook_subscriptions (store_id, topic, url, secret) VALUES (${storeId}, 'order:created', 'http://127.0.0.1:9/old', ${plaintext})`
        const sealed = yield* sealPlaintextSecrets
        const again = yield* sealPlaintextSecrets
        const [row] = yield* sql<{ secret: string }>`SELECT secret FROM webhook_subscriptions WHERE store_id = ${storeId}`
        return { sealed, again, stored: row?.secret ?? "" }
      }).pipe(Effect.provide(SecretBox.layer)))
      expect(sealedCount.sealed).toBeGreaterThanOrEqual(1)
      expect(sealedCount.again).toBe(0)
      expect(isSealed(sealedCount.stored)).toBe(true)
      const listed = await app.call("GET", "/api/v2/webhooks", { key })
      expect(JSON.stringify(listed.body)).toContain(plaintext)
    } finally {
      await app.dispose()
    }
  })

  it("seals the cursor-signing key, and one stored in plaintext before sealing keeps signing the same cursors", async () => {
    const app = startApp({ _tag: "Embedded", location: "memory" })
    try {
      await app.seedStore({ scopes: ["customisers:read"] })
      const readRow = Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const [row] = yield* sql<{ secret: string }>`SELECT secret FROM service_secrets WHERE name = 'cursor_signing'`
        return row?.secret ?? ""
      })
      // The key the migration wrote is sealed by the time the app serves.
      expect(isSealed(await app.run(readRow))).toBe(true)
      const before = "cursor-key-stored-in-plaintext-by-an-earlier-version"
      const after = await app.run(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE service_secrets SET secret = ${before} WHERE name = 'cursor_signing'`
        yield* sealPlaintextSecrets
        const stored = yield* readRow
        // What the next start reads as the key.
        const opened = yield* Effect.map(Effect.service(CursorKey), (k) => k.secret).pipe(Effect.provide(Layer.fresh(CursorKey.layer)))
        return { stored, opened }
      }).pipe(Effect.provide(SecretBox.layer)))
      expect(isSealed(after.stored)).toBe(true)
      expect(after.stored).not.toContain(before)
      expect(after.opened).toBe(before)
    } finally {
      await app.dispose()
    }
  })

  it("never hands out an IV twice, across refills of the random pool", () => {
    // Several refills of the 4 KiB pool, all read at the end: an IV sharing the pool's memory
    // would have been overwritten by a later refill.
    const ivs = Array.from({ length: 3 * 1024 + 7 }, () => nextIv())
    const texts = ivs.map((iv) => iv.toString("hex"))
    expect(ivs.every((iv) => iv.length === 12)).toBe(true)
    expect(new Set(texts).size).toBe(texts.length)
    const ring = [secretKeyOf(Buffer.alloc(32, 7))] as const
    const sealed = [seal(ring, "same"), seal(ring, "same")].map((value) => value.split(".")[2])
    expect(sealed[0]).not.toBe(sealed[1])
  })

  it("opens with any key of the ring, seals with the first, and refuses a tampered or foreign value", () => {
    const oldKey = Buffer.alloc(32, 1).toString("base64")
    const newKey = Buffer.alloc(32, 2).toString("base64")
    const before = parseKeyring(oldKey)
    const after = parseKeyring(`${newKey},${oldKey}`)
    if ("fault" in before || "fault" in after) throw new Error("test keys are valid")
    const sealedBefore = seal(before, "whsec_rotate_me")
    expect(open(after, sealedBefore)).toBe("whsec_rotate_me")
    expect(seal(after, "x").split(".")[1]).toBe(secretKeyOf(Buffer.from(newKey, "base64")).id)
    const [prefix, id, iv, ciphertext, tag] = sealedBefore.split(".")
    const tampered = [prefix, id, iv, `${ciphertext?.slice(0, -2)}AA`, tag].join(".")
    expect(() => open(after, tampered)).toThrow()
    expect(() => open([secretKeyOf(Buffer.alloc(32, 9))], sealedBefore)).toThrow(/does not hold/)
    expect(open(after, "whsec_plaintext_from_before")).toBe("whsec_plaintext_from_before")
    expect("fault" in parseKeyring("c2hvcnQ=")).toBe(true)
  })
})
