import { describe, expect, it } from "vitest"
import {
  MAX_RETRY_DELAY_MS,
  retryCeilingMs,
  retryDelayMs,
  shouldGiveUp
} from "../../src/domain/webhooks/retry-schedule.js"

// The floor is the contract's (at least 8 attempts over at least 24 hours), written out here as
// literals: a test that compared with the module's own constants would pass with the floor moved.
const DAY_MS = 24 * 60 * 60 * 1000

describe("webhook retry schedule", () => {
  it("doubles the ceiling from the base up to six hours", () => {
    expect([1, 2, 3, 4].map((n) => retryCeilingMs(n, 30_000))).toEqual([30_000, 60_000, 120_000, 240_000])
    expect(retryCeilingMs(11, 30_000)).toBe(MAX_RETRY_DELAY_MS)
    expect(retryCeilingMs(500, 30_000)).toBe(MAX_RETRY_DELAY_MS)
  })

  it("draws the delay uniformly below the ceiling (full jitter)", () => {
    expect(retryDelayMs(3, 1000, 0)).toBe(0)
    expect(retryDelayMs(3, 1000, 0.5)).toBe(2000)
    expect(retryDelayMs(3, 1000, 0.999999)).toBeLessThan(4000)
  })

  it("gives up only after at least 8 attempts AND 24 hours, whatever the jitter", () => {
    const first = new Date("2026-01-01T00:00:00Z")
    const after = (ms: number) => new Date(first.getTime() + ms)
    expect(shouldGiveUp(7, first, after(10 * DAY_MS))).toBe(false)
    expect(shouldGiveUp(50, first, after(DAY_MS - 1))).toBe(false)
    expect(shouldGiveUp(8, first, after(DAY_MS))).toBe(true)
  })

  it("with the default base and the luckiest draws still spans 24 hours before giving up", () => {
    // Unlucky draws (1 % of the ceiling), typical ones (half) and the longest.
    for (const random of [0.01, 0.5, 0.999]) {
      let elapsed = 0
      let attempts = 1
      while (!shouldGiveUp(attempts, new Date(0), new Date(elapsed))) {
        elapsed += Math.max(retryDelayMs(attempts, 30_000, random), 1)
        attempts += 1
        expect(attempts).toBeLessThan(10_000)
      }
      expect(attempts).toBeGreaterThanOrEqual(8)
      expect(elapsed).toBeGreaterThanOrEqual(DAY_MS)
    }
  })
})
