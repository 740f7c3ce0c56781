import { describe, expect, it } from "vitest"
import { overheadRatios, repeatRatios, spreadOf, verdictOf } from "../verdict.js"

describe("repeatRatios", () => {
  it("divides each repeat by the mean of the (a) runs just before and just after it", () => {
    // A C A C A: (a) at 40k, 20k and 30k around repeats of 15k and 10k req/s.
    const ratios = repeatRatios([15_000, 10_000], [40_000, 20_000, 30_000])
    expect(ratios[0]).toBeCloseTo(15_000 / 30_000)
    expect(ratios[1]).toBeCloseTo(10_000 / 25_000)
  })

  it("refuses a repeat without an (a) run on each side", () => {
    expect(() => repeatRatios([1, 1], [1, 1])).toThrow(/repeat 2/)
  })

  it("answers NaN, not Infinity, when (a) answered nothing", () => {
    expect(repeatRatios([100], [0, 0])[0]).toBeNaN()
  })
})

describe("spreadOf and verdictOf", () => {
  it("passes only when the worst of the three repeats reaches the line", () => {
    const spread = spreadOf([0.62, 0.48, 0.55])
    expect(spread).toEqual({ worst: 0.48, median: 0.55, best: 0.62 })
    // The median and best reach 0.5; the worst does not.
    expect(verdictOf(spread, 0.5)).toBe("BELOW")
    expect(verdictOf(spread, 0.48)).toBe("PASS")
  })

  it("counts a repeat without a figure as below any line", () => {
    const spread = spreadOf([0.9, Number.NaN, 0.8])
    expect(spread.worst).toBeNaN()
    expect(spread.best).toBe(0.9)
    expect(verdictOf(spread, 0.1)).toBe("BELOW")
    expect(verdictOf(spreadOf([]), 0)).toBe("BELOW")
  })
})

describe("overheadRatios", () => {
  it("compares metrics on with off repeat by repeat, and the worst decides", () => {
    const overhead = overheadRatios([0.38, 0.4, 0.33], [0.4, 0.4, 0.36])
    expect(overhead[0]).toBeCloseTo(0.95)
    expect(overhead[1]).toBeCloseTo(1)
    expect(overhead[2]).toBeCloseTo(0.33 / 0.36)
    expect(verdictOf(spreadOf(overhead), 0.95)).toBe("BELOW")
  })

  it("refuses repeats that cannot be paired", () => {
    expect(() => overheadRatios([1, 1], [1])).toThrow(/cannot be paired/)
  })
})
