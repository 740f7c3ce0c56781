import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { readHeader, signatureHeaders, signPayload, verifyWebhook } from "../../src/domain/webhooks/index.js"

const secret = "whsec_test_secret"
const body = JSON.stringify({ product: { product_id: 1, title: "Neon" } })
const now = new Date("2026-07-22T00:00:00.000Z")
const nowSeconds = 1784678400

// Independent reference: the documented definition (docs/webhooks.md), spelled out directly.
const reference = (key: string, timestamp: string, raw: string): string =>
  createHmac("sha256", key).update(`${timestamp}.${raw}`).digest("hex")

const signedHeaders = (timestamp: number = nowSeconds, raw: string = body, key: string = secret) => ({
  "x-webhook-timestamp": String(timestamp),
  "x-webhook-signature": reference(key, String(timestamp), raw)
})

describe("signPayload", () => {
  it("matches an independently computed HMAC-SHA256 of timestamp.body", () => {
    expect(signPayload(secret, nowSeconds, body)).toBe(reference(secret, "1784678400", body))
  })

  it("matches a fixed known answer (computed with openssl dgst -sha256 -hmac)", () => {
    expect(signPayload("whsec_test", 1784678400, '{"ok":true}'))
      .toBe("977aef8abceb813576eb5dec864d47de72d3f4616b827ab093f8f33215952ffd")
  })

  it("is lowercase hex of 64 characters", () => {
    expect(signPayload(secret, nowSeconds, body)).toMatch(/^[0-9a-f]{64}$/)
  })

  it("signs bytes and text identically, UTF-8 included", () => {
    const text = JSON.stringify({ title: "Café ✨" })
    expect(signPayload(secret, nowSeconds, new TextEncoder().encode(text))).toBe(signPayload(secret, nowSeconds, text))
    expect(signPayload(secret, nowSeconds, text)).toBe(reference(secret, String(nowSeconds), text))
  })

  it("accepts a byte secret", () => {
    expect(signPayload(new TextEncoder().encode(secret), nowSeconds, body)).toBe(signPayload(secret, nowSeconds, body))
  })

  it("refuses timestamps that are not whole non-negative seconds", () => {
    expect(() => signPayload(secret, 1.5, body)).toThrow(RangeError)
    expect(() => signPayload(secret, -1, body)).toThrow(RangeError)
    expect(() => signPayload(secret, Number.NaN, body)).toThrow(RangeError)
  })
})

describe("signatureHeaders", () => {
  it("stamps Unix seconds (floored) and the matching signature", () => {
    const headers = signatureHeaders(secret, body, new Date("2026-07-22T00:00:00.999Z"))
    expect(headers).toEqual({
      "x-webhook-timestamp": "1784678400",
      "x-webhook-signature": reference(secret, "1784678400", body)
    })
  })

  it("round-trips through verifyWebhook", () => {
    const headers = signatureHeaders(secret, body, now)
    expect(verifyWebhook({ rawBody: body, headers, secret, now })).toEqual({ ok: true })
  })
})

describe("verifyWebhook", () => {
  it("accepts a correctly signed delivery", () => {
    expect(verifyWebhook({ rawBody: body, headers: signedHeaders(), secret, now })).toEqual({ ok: true })
  })

  it("accepts the raw body as bytes", () => {
    expect(verifyWebhook({ rawBody: Buffer.from(body), headers: signedHeaders(), secret, now })).toEqual({ ok: true })
  })

  it("rejects a tampered body", () => {
    const tampered = body.replace("Neon", "Noen")
    expect(verifyWebhook({ rawBody: tampered, headers: signedHeaders(), secret, now }))
      .toEqual({ ok: false, reason: "signature_mismatch" })
    expect(verifyWebhook({ rawBody: `${body} `, headers: signedHeaders(), secret, now }))
      .toEqual({ ok: false, reason: "signature_mismatch" })
  })

  it("rejects a wrong secret", () => {
    expect(verifyWebhook({ rawBody: body, headers: signedHeaders(), secret: "whsec_other", now }))
      .toEqual({ ok: false, reason: "signature_mismatch" })
  })

  it("rejects a timestamp changed after signing", () => {
    const headers = { ...signedHeaders(), "x-webhook-timestamp": String(nowSeconds + 1) }
    expect(verifyWebhook({ rawBody: body, headers, secret, now })).toEqual({ ok: false, reason: "signature_mismatch" })
  })

  it("rejects signatures of the wrong length or alphabet without throwing", () => {
    const good = signedHeaders()["x-webhook-signature"]
    for (const signature of [good.slice(0, 63), `${good}0`, `${good}${good}`, "z".repeat(64), "é".repeat(32), "0"]) {
      expect(verifyWebhook({ rawBody: body, headers: { ...signedHeaders(), "x-webhook-signature": signature }, secret, now }))
        .toEqual({ ok: false, reason: "signature_mismatch" })
    }
  })

  it("accepts an uppercase hex signature", () => {
    const headers = signedHeaders()
    const upper = { ...headers, "x-webhook-signature": headers["x-webhook-signature"].toUpperCase() }
    expect(verifyWebhook({ rawBody: body, headers: upper, secret, now })).toEqual({ ok: true })
  })

  it("rejects old and future timestamps beyond 300 seconds, accepting the boundary", () => {
    const at = (offset: number) =>
      verifyWebhook({ rawBody: body, headers: signedHeaders(nowSeconds + offset), secret, now })
    expect(at(-300)).toEqual({ ok: true })
    expect(at(300)).toEqual({ ok: true })
    expect(at(-301)).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" })
    expect(at(301)).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" })
    expect(at(-86_400)).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" })
  })

  it("honours a custom tolerance", () => {
    const headers = signedHeaders(nowSeconds - 60)
    expect(verifyWebhook({ rawBody: body, headers, secret, now, toleranceSeconds: 30 }))
      .toEqual({ ok: false, reason: "timestamp_out_of_tolerance" })
    expect(verifyWebhook({ rawBody: body, headers, secret, now, toleranceSeconds: 60 })).toEqual({ ok: true })
  })

  it("fails closed on a NaN tolerance or an invalid clock", () => {
    expect(verifyWebhook({ rawBody: body, headers: signedHeaders(0), secret, now, toleranceSeconds: Number.NaN }))
      .toEqual({ ok: false, reason: "timestamp_out_of_tolerance" })
    expect(verifyWebhook({ rawBody: body, headers: signedHeaders(), secret, now: new Date(Number.NaN) }))
      .toEqual({ ok: false, reason: "timestamp_out_of_tolerance" })
  })

  it("defaults now to the current clock", () => {
    const headers = signatureHeaders(secret, body, new Date())
    expect(verifyWebhook({ rawBody: body, headers, secret })).toEqual({ ok: true })
  })

  it("reports missing or blank headers", () => {
    const { "x-webhook-signature": signature, "x-webhook-timestamp": timestamp } = signedHeaders()
    expect(verifyWebhook({ rawBody: body, headers: { "x-webhook-signature": signature }, secret, now }))
      .toEqual({ ok: false, reason: "missing_header" })
    expect(verifyWebhook({ rawBody: body, headers: { "x-webhook-timestamp": timestamp }, secret, now }))
      .toEqual({ ok: false, reason: "missing_header" })
    expect(verifyWebhook({ rawBody: body, headers: {}, secret, now })).toEqual({ ok: false, reason: "missing_header" })
    expect(verifyWebhook({ rawBody: body, headers: { "x-webhook-timestamp": timestamp, "x-webhook-signature": "  " }, secret, now }))
      .toEqual({ ok: false, reason: "missing_header" })
    expect(verifyWebhook({ rawBody: body, headers: new Headers(), secret, now })).toEqual({ ok: false, reason: "missing_header" })
  })

  it("rejects timestamps that are not decimal Unix seconds", () => {
    for (const timestamp of ["abc", "-1784678400", "1784678400.5", "1.7846784e9", "+1784678400", "0x6a5f0000", "1784678400000000"]) {
      const headers = { "x-webhook-timestamp": timestamp, "x-webhook-signature": reference(secret, timestamp, body) }
      expect(verifyWebhook({ rawBody: body, headers, secret, now })).toEqual({ ok: false, reason: "invalid_timestamp" })
    }
  })

  it("reads headers case-insensitively from plain records", () => {
    const { "x-webhook-signature": signature, "x-webhook-timestamp": timestamp } = signedHeaders()
    const headers = { "X-Webhook-Timestamp": timestamp, "X-WEBHOOK-SIGNATURE": signature }
    expect(verifyWebhook({ rawBody: body, headers, secret, now })).toEqual({ ok: true })
  })

  it("reads a Fetch Headers object", () => {
    const headers = new Headers(signedHeaders())
    expect(verifyWebhook({ rawBody: body, headers, secret, now })).toEqual({ ok: true })
    const mixed = new Headers({ "X-Webhook-Timestamp": String(nowSeconds), "X-Webhook-Signature": signedHeaders()["x-webhook-signature"] })
    expect(verifyWebhook({ rawBody: body, headers: mixed, secret, now })).toEqual({ ok: true })
  })

  it("reads Node's array-valued headers, and a repeated signature never verifies", () => {
    const { "x-webhook-signature": signature, "x-webhook-timestamp": timestamp } = signedHeaders()
    expect(verifyWebhook({ rawBody: body, headers: { "x-webhook-timestamp": [timestamp], "x-webhook-signature": [signature] }, secret, now }))
      .toEqual({ ok: true })
    expect(verifyWebhook({ rawBody: body, headers: { "x-webhook-timestamp": timestamp, "x-webhook-signature": [signature, signature] }, secret, now }))
      .toEqual({ ok: false, reason: "signature_mismatch" })
  })
})

describe("readHeader", () => {
  it("joins duplicates that differ only in case, like Headers.get", () => {
    expect(readHeader({ "X-A": "1", "x-a": "2" }, "x-a")).toBe("1, 2")
    expect(readHeader({ "x-a": undefined }, "X-A")).toBeUndefined()
  })
})
