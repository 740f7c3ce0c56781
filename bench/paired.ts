/**
 * A case measured in runs, each between two runs of the bare server (a): A C A C … C A. This VM's
 * speed changes from one half-minute to the next, so a case compared with (a) measured a minute
 * away is compared with a different machine; a run and the (a) runs on either side of it are
 * seconds apart. bench/http.ts uses it twice: for the sustained repeats its verdict rests on
 * (bench/verdict.ts), and for the short slices it prints only as a diagnostic.
 */
import type { Measurement } from "./load.js"
import { median, ratio, repeatRatios } from "./verdict.js"

export { median, ratio } from "./verdict.js"

/** What the slices measured, and the ratios of each case slice to the (a) slices around it. */
export interface Paired {
  /** The case's slices as one run: their requests over their time together. */
  readonly measurement: Measurement
  /** The case's slices, in order. */
  readonly slices: ReadonlyArray<Measurement>
  /** (a)'s slices: one before each case slice and one after the last. */
  readonly bare: ReadonlyArray<Measurement>
  /** Each case slice's req/s ÷ the mean req/s of the (a) slices just before and after it. */
  readonly ratios: ReadonlyArray<number>
  /** Each slice's CPU ratio: the mean CPU µs per request of the (a) slices around it ÷ the case's. */
  readonly cpuRatios: ReadonlyArray<number>
}

const sum = (values: ReadonlyArray<number>) => values.reduce((total, value) => total + value, 0)

/**
 * Slices as one run: requests, failures, CPU and wall time add up. Latency histograms do not, so
 * p50 is the slices' median p50 and p99 the highest slice p99 (never better than any slice).
 */
export const combineSlices = (slices: ReadonlyArray<Measurement>): Measurement => {
  const requests = sum(slices.map((m) => m.requests))
  const wallMicros = sum(slices.map((m) => m.wallMicros))
  const serverMicros = sum(slices.map((m) => m.cpuUsPerRequest * m.requests))
  const generatorMicros = sum(slices.map((m) => m.generatorCores * m.wallMicros))
  return {
    rps: wallMicros > 0 ? (requests * 1_000_000) / wallMicros : 0,
    p50: median(slices.map((m) => m.p50)),
    p99: Math.max(...slices.map((m) => m.p99)),
    requests,
    failures: sum(slices.map((m) => m.failures)),
    cpuUsPerRequest: requests > 0 ? serverMicros / requests : 0,
    serverCores: wallMicros > 0 ? serverMicros / wallMicros : 0,
    generatorCores: wallMicros > 0 ? generatorMicros / wallMicros : 0,
    wallMicros,
    load: slices.at(-1)?.load ?? 0
  }
}

/** Runs A C A C … C A with `count` case slices, and pairs each case slice with its neighbours. */
export const measurePaired = async (
  count: number,
  bareSlice: () => Promise<Measurement>,
  caseSlice: () => Promise<Measurement>
): Promise<Paired> => {
  const bare: Array<Measurement> = [await bareSlice()]
  const slices: Array<Measurement> = []
  for (let index = 0; index < count; index += 1) {
    slices.push(await caseSlice())
    bare.push(await bareSlice())
  }
  return pairSlices(slices, bare)
}

/** Each case slice against the (a) slices on either side of it (`bare` has one more slice). */
export const pairSlices = (slices: ReadonlyArray<Measurement>, bare: ReadonlyArray<Measurement>): Paired => {
  const pairs = slices.map((slice, index) => {
    const before = bare[index]
    const after = bare[index + 1]
    if (before === undefined || after === undefined) throw new Error(`case slice ${index + 1} has no (a) slice on each side`)
    return { slice, before, after }
  })
  return {
    measurement: combineSlices(slices),
    slices,
    bare,
    ratios: repeatRatios(slices.map((m) => m.rps), bare.map((m) => m.rps)),
    cpuRatios: pairs.map(({ slice, before, after }) => ratio((before.cpuUsPerRequest + after.cpuUsPerRequest) / 2, slice.cpuUsPerRequest))
  }
}
