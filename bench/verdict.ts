/**
 * The pass/fail arithmetic of the HTTP benchmark, kept pure so that it is tested on its own
 * (test/bench/verdict.test.ts). A case is run in sustained repeats, each between two sustained
 * runs of the bare server (a): A C A C … C A. A repeat's ratio is its req/s ÷ the mean req/s of
 * the (a) runs just before and just after it, and a line passes only when the worst repeat
 * reaches it: a lucky repeat cannot carry a verdict.
 */

/** The worst, median and best of a case's repeat ratios. */
export interface Spread {
  readonly worst: number
  readonly median: number
  readonly best: number
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  if (sorted.length === 0) return Number.NaN
  const middle = Math.floor(sorted.length / 2)
  const upper = sorted[middle] ?? Number.NaN
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? Number.NaN) + upper) / 2
}

/** `value` ÷ `base`, or NaN when there is no base to compare with. */
export const ratio = (value: number, base: number): number => (base > 0 ? value / base : Number.NaN)

/**
 * Each repeat's req/s ÷ the mean req/s of the (a) runs just before and just after it; `bare`
 * has one run more than `repeats` (A C A C A).
 */
export const repeatRatios = (repeats: ReadonlyArray<number>, bare: ReadonlyArray<number>): ReadonlyArray<number> =>
  repeats.map((rps, index) => {
    const before = bare[index]
    const after = bare[index + 1]
    if (before === undefined || after === undefined) throw new Error(`repeat ${index + 1} has no (a) run on each side`)
    return ratio(rps, (before + after) / 2)
  })

/** The spread of repeat ratios; a repeat without a figure (NaN) counts as the worst. */
export const spreadOf = (ratios: ReadonlyArray<number>): Spread => {
  if (ratios.length === 0 || ratios.some((value) => !Number.isFinite(value))) {
    const finite = ratios.filter(Number.isFinite)
    return { worst: Number.NaN, median: median(finite), best: finite.length === 0 ? Number.NaN : Math.max(...finite) }
  }
  return { worst: Math.min(...ratios), median: median(ratios), best: Math.max(...ratios) }
}

/** Whether a figure reaches its line; a missing figure (NaN) never does. */
export const reaches = (figure: number, line: number): boolean => Number.isFinite(figure) && figure >= line

/** PASS only when the worst repeat reaches the line. */
export const verdictOf = (spread: Spread, line: number): "PASS" | "BELOW" => (reaches(spread.worst, line) ? "PASS" : "BELOW")

/**
 * A case with metrics on against the same case off, repeat by repeat: each repeat's ratio to (a)
 * with metrics on ÷ the same repeat's with metrics off. Each is already normalised by the (a)
 * runs around it, so the two need not run at the same moment.
 */
export const overheadRatios = (on: ReadonlyArray<number>, off: ReadonlyArray<number>): ReadonlyArray<number> => {
  if (on.length !== off.length) throw new Error(`metrics on ran ${on.length} repeats, off ${off.length}: they cannot be paired`)
  return on.map((value, index) => ratio(value, off[index] ?? Number.NaN))
}
