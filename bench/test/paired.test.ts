import { describe, expect, it } from "vitest"
import type { Measurement } from "../load.js"
import { combineSlices, median, measurePaired, pairSlices } from "../paired.js"

// A run of `seconds` that answered `requests` and cost the server `cpuMicros` in all.
const run = (requests: number, seconds: number, cpuMicros: number, extra: Partial<Measurement> = {}): Measurement => ({
  rps: requests / seconds,
  p50: 1,
  p99: 5,
  requests,
  failures: 0,
  cpuUsPerRequest: cpuMicros / requests,
  serverCores: cpuMicros / (seconds * 1_000_000),
  generatorCores: 0.5,
  wallMicros: seconds * 1_000_000,
  load: 1,
  ...extra
})

describe("median", () => {
  it("takes the middle value of an odd count and the mean of the middle two of an even one", () => {
    expect(median([5, 1, 3])).toBe(3)
    expect(median([4, 1, 3, 2])).toBe(2.5)
    expect(median([])).toBeNaN()
  })
})

describe("combineSlices", () => {
  it("adds requests, time and CPU, so the figure is the slices' together, not their mean", () => {
    const combined = combineSlices([run(1000, 1, 50_000), run(3000, 2, 90_000, { p50: 3, p99: 9, failures: 2 })])
    expect(combined.requests).toBe(4000)
    expect(combined.rps).toBeCloseTo(4000 / 3)
    expect(combined.cpuUsPerRequest).toBeCloseTo(140_000 / 4000)
    expect(combined.serverCores).toBeCloseTo(140_000 / 3_000_000)
    expect(combined.failures).toBe(2)
    // Latency cannot be added: the median p50, and the worst p99.
    expect(combined.p50).toBe(2)
    expect(combined.p99).toBe(9)
  })
})

describe("pairSlices", () => {
  it("compares each case slice with the mean of the (a) slices just before and after it", () => {
    // The machine halves its speed after the first case slice: the case and (a) both slow down.
    const bare = [run(40_000, 1, 800_000), run(20_000, 1, 800_000), run(20_000, 1, 800_000)]
    const slices = [run(15_000, 1, 900_000), run(10_000, 1, 900_000)]
    const paired = pairSlices(slices, bare)
    expect(paired.ratios[0]).toBeCloseTo(15_000 / 30_000)
    expect(paired.ratios[1]).toBeCloseTo(10_000 / 20_000)
    // (a) cost 20 and 40 µs per request around it (mean 30); the slice cost 60.
    expect(paired.cpuRatios[0]).toBeCloseTo(30 / 60)
    expect(paired.measurement.requests).toBe(25_000)
  })

  it("refuses case slices without an (a) slice on each side", () => {
    expect(() => pairSlices([run(1, 1, 1), run(1, 1, 1)], [run(1, 1, 1), run(1, 1, 1)])).toThrow(/slice 2/)
  })
})

describe("measurePaired", () => {
  it("runs A C A C A: (a) first, last and between every case slice", async () => {
    const order: Array<string> = []
    const paired = await measurePaired(
      2,
      async () => {
        order.push("A")
        return run(20_000, 1, 500_000)
      },
      async () => {
        order.push("C")
        return run(10_000, 1, 500_000)
      }
    )
    expect(order).toEqual(["A", "C", "A", "C", "A"])
    expect(paired.bare).toHaveLength(3)
    expect(paired.ratios).toEqual([0.5, 0.5])
  })
})
