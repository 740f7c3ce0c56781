import { createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import { parseRetryAfterMs } from "../../src/domain/outbound/retry-after.js"
import { responseExcerpt } from "../../src/domain/webhooks/delivery-log.js"
import { nextStepAfter, requestedDelayMs } from "../../src/domain/webhooks/receiver-answer.js"
import { signStandard, standardSignatureHeaders, verifyStandardWebhook } from "../../src/domain/webhooks/standard-signature.js"

const NOW = new Date("2026-03-01T12:00:00.000Z")
const answer = (status: number | null, retryAfter?: string, attempt = 1) => ({
  status,
  retryAfter,
  attempt,
  firstAttemptAt: NOW,
  now: NOW,
  baseMs: 30_000,
  random: 0.5
})

describe("what a receiver's answer means", () => {
  it("2xx delivers; 410 disables at once, whatever the attempt", () => {
    expect(nextStepAfter(answer(204))).toEqual({ _tag: "Delivered" })
    expect(nextStepAfter(answer(410))).toEqual({ _tag: "Disable", reason: "gone" })
    expect(nextStepAfter(answer(410, undefined, 1))._tag).toBe("Disable")
  })

  it("honours Retry-After on 429, 502, 503 and 504 (seconds or HTTP-date), never below the schedule's draw", () => {
    for (const status of [429, 502, 503, 504]) {
      expect(nextStepAfter(answer(status, "120"))).toEqual({ _tag: "Retry", delayMs: 120_000 })
    }
    expect(nextStepAfter(answer(503, "Sun, 01 Mar 2026 12:10:00 GMT"))).toEqual({ _tag: "Retry", delayMs: 600_000 })
    // A shorter ask than the jittered schedule (0.5 × 30 s) keeps the schedule's wait.
    expect(nextStepAfter(answer(503, "1"))).toEqual({ _tag: "Retry", delayMs: 15_000 })
  })

  it("ignores Retry-After on other statuses and when malformed", () => {
    expect(nextStepAfter(answer(500, "3600"))).toEqual({ _tag: "Retry", delayMs: 15_000 })
    expect(nextStepAfter(answer(null, "3600"))).toEqual({ _tag: "Retry", delayMs: 15_000 })
    expect(nextStepAfter(answer(503, "soon"))).toEqual({ _tag: "Retry", delayMs: 15_000 })
    expect(requestedDelayMs(500, "60", NOW)).toBeUndefined()
  })

  it("clamps a Retry-After to 6 hours, and a past date to no wait", () => {
    expect(requestedDelayMs(503, "86400", NOW)).toBe(6 * 60 * 60 * 1000)
    expect(requestedDelayMs(429, "Sun, 01 Mar 2026 11:00:00 GMT", NOW)).toBe(0)
  })

  it("gives up only after 8 attempts over 24 hours, Retry-After or not", () => {
    const old = { ...answer(503, "60", 8), firstAttemptAt: new Date(NOW.getTime() - 24 * 60 * 60 * 1000) }
    expect(nextStepAfter(old)).toEqual({ _tag: "GiveUp" })
    expect(nextStepAfter({ ...old, attempt: 7 })._tag).toBe("Retry")
  })

  it("reads Retry-After as RFC 9110 says", () => {
    expect(parseRetryAfterMs("0", NOW.getTime())).toBe(0)
    expect(parseRetryAfterMs(" 30 ", NOW.getTime())).toBe(30_000)
    expect(parseRetryAfterMs("-5", NOW.getTime())).toBeUndefined()
    expect(parseRetryAfterMs(undefined, NOW.getTime())).toBeUndefined()
  })
})

describe("the response excerpt", () => {
  it("keeps the first 1024 bytes, never splitting a character", () => {
    expect(responseExcerpt("short")).toBe("short")
    expect(Buffer.byteLength(responseExcerpt("a".repeat(5000)))).toBe(1024)
    // 1023 ASCII bytes then a 2-byte character: cutting at 1024 would split it.
    const cut = responseExcerpt(`${"a".repeat(1023)}é and more`)
    expect(cut).toBe("a".repeat(1023))
    expect(responseExcerpt(`${"a".repeat(1022)}é`)).toBe(`${"a".repeat(1022)}é`)
  })
})

describe("Standard Webhooks signatures", () => {
  const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
  const body = `{"test": 2432232314}`

  it("signs `id.timestamp.body` with the secret's decoded bytes, base64, as v1", () => {
    const expected = createHmac("sha256", Buffer.from("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "base64"))
      .update(`msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.${body}`)
      .digest("base64")
    expect(signStandard(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body)).toBe(`v1,${expected}`)
  })

  it("verifies its own headers and refuses a changed body, another secret or an old timestamp", () => {
    const headers = standardSignatureHeaders(secret, "evt_1", body, NOW)
    expect(verifyStandardWebhook({ rawBody: body, headers, secret, now: NOW })).toEqual({ ok: true })
    expect(verifyStandardWebhook({ rawBody: `${body} `, headers, secret, now: NOW })).toEqual({ ok: false, reason: "signature_mismatch" })
    expect(verifyStandardWebhook({ rawBody: body, headers, secret: "whsec_b3RoZXI=", now: NOW }).ok).toBe(false)
    const later = new Date(NOW.getTime() + 301_000)
    expect(verifyStandardWebhook({ rawBody: body, headers, secret, now: later })).toEqual({ ok: false, reason: "timestamp_out_of_tolerance" })
    expect(verifyStandardWebhook({ rawBody: body, headers: {}, secret, now: NOW })).toEqual({ ok: false, reason: "missing_header" })
  })

  it("signs with both secrets during a rotation; either verifies", () => {
    const previous = "whsec_cHJldmlvdXMtc2VjcmV0LWJ5dGVz"
    const headers = standardSignatureHeaders(secret, "evt_1", body, NOW, previous)
    expect(headers["webhook-signature"].split(" ")).toHaveLength(2)
    expect(verifyStandardWebhook({ rawBody: body, headers, secret: previous, now: NOW })).toEqual({ ok: true })
    expect(verifyStandardWebhook({ rawBody: body, headers, secret, now: NOW })).toEqual({ ok: true })
  })
})
