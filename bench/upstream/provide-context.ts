/**
 * The minimal reproduction of bench/upstream-provide-context.md: what `Effect.provideContext`
 * costs per call, as HttpApiBuilder pays it on every request (it provides the whole context its
 * group was built in to each handler's effect), against the size of that context and of the
 * context already on the fiber. No HTTP and no signcraft code: effect alone.
 *
 *   node --import tsx bench/upstream/provide-context.ts
 *
 * Prints CPU µs per call (process.cpuUsage over CALLS calls, the median of ROUNDS) for each size.
 */
import { Context, Effect } from "effect"

const CALLS = 20_000
const ROUNDS = 5

// A context of `size` distinct services, as a layer-built context holds them.
const contextOf = (size: number, prefix: string): Context.Context<never> =>
  Context.makeUnsafe(new Map(Array.from({ length: size }, (_, index) => [`${prefix}/Service${index}`, { index }])))

const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

// CPU µs per call of `perCall`, run CALLS times inside one fiber whose context is `fiberContext`.
const measure = (fiberContext: Context.Context<never>, perCall: Effect.Effect<void>): number => {
  const rounds: Array<number> = []
  for (let round = 0; round < ROUNDS; round += 1) {
    const before = process.cpuUsage()
    Effect.runSync(Effect.provideContext(
      Effect.gen(function*() {
        for (let call = 0; call < CALLS; call += 1) yield* perCall
      }),
      fiberContext
    ))
    const used = process.cpuUsage(before)
    rounds.push((used.user + used.system) / CALLS)
  }
  return median(rounds)
}

// A handler's effect: not an Exit (provideContext returns an Exit unchanged), and trivial.
const lookup = Effect.sync(() => undefined)

console.log("| services provided per call | services on the fiber | CPU µs per call | without provideContext |")
console.log("|---:|---:|---:|---:|")
for (const fiberSize of [10, 100]) {
  for (const provided of [0, 10, 50, 100, 200]) {
    const fiberContext = contextOf(fiberSize, "fiber")
    const groupContext = contextOf(provided, "group")
    const withProvide = measure(fiberContext, Effect.provideContext(lookup, groupContext))
    const without = measure(fiberContext, lookup)
    console.log(`| ${provided} | ${fiberSize} | ${withProvide.toFixed(2)} | ${without.toFixed(2)} |`)
  }
}
