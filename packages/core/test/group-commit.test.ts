import { Deferred, Effect, Exit, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { makeGroupCommit } from "../src/storage/group-commit.js"

// A group commit over a recording writer; `gate`, when set, holds the next write until opened.
const recorder = (maxBatch: number, alone: Effect.Effect<boolean> = Effect.succeed(false)) => {
  const batches: Array<ReadonlyArray<number>> = []
  let gate: Deferred.Deferred<void> | undefined
  const commit = makeGroupCommit<number, string, string>({
    maxBatch,
    maxConcurrent: 1,
    alone,
    write: (items) =>
      Effect.gen(function*() {
        batches.push(items)
        const held = gate
        gate = undefined
        if (held !== undefined) yield* Deferred.await(held)
        if (items.includes(-1)) return yield* Effect.die(new Error("the statement failed"))
        return items.map((item) => item % 2 === 0 ? Exit.succeed(`even ${item}`) : Exit.fail(`odd ${item}`))
      })
  })
  const hold = () => {
    const opened = Deferred.makeUnsafe<void>()
    gate = opened
    return opened
  }
  return { commit, batches, hold }
}

describe("group commit", () => {
  it("writes a lone item at once, alone", async () => {
    const { commit, batches } = recorder(8)
    expect(await Effect.runPromise(commit.submit(2))).toBe("even 2")
    expect(batches).toEqual([[2]])
  })

  it("gathers what is submitted while a batch is written into the next batch, at most maxBatch at a time", async () => {
    const { commit, batches, hold } = recorder(3)
    const answers = await Effect.runPromise(Effect.gen(function*() {
      const opened = hold()
      const first = yield* Effect.forkChild(commit.submit(0))
      yield* Effect.yieldNow
      yield* Effect.yieldNow
      expect(batches).toEqual([[0]])
      const rest = yield* Effect.forEach([2, 4, 6, 8, 10], (item) => Effect.forkChild(commit.submit(item)))
      yield* Effect.yieldNow
      expect(batches).toEqual([[0]])
      yield* Deferred.succeed(opened, undefined)
      return yield* Fiber.joinAll([first, ...rest])
    }))
    expect(answers).toEqual(["even 0", "even 2", "even 4", "even 6", "even 8", "even 10"])
    expect(batches).toEqual([[0], [2, 4, 6], [8, 10]])
  })

  it("lets items submitted in the same turn of the event loop join the first batch", async () => {
    const { commit, batches } = recorder(8)
    const answers = await Effect.runPromise(
      Effect.forEach([2, 4, 6], (item) => commit.submit(item), { concurrency: "unbounded" })
    )
    expect(answers).toEqual(["even 2", "even 4", "even 6"])
    expect(batches).toEqual([[2, 4, 6]])
  })

  it("answers each item with its own outcome", async () => {
    const { commit } = recorder(8)
    const exits = await Effect.runPromise(
      Effect.forEach([2, 3, 4], (item) => Effect.exit(commit.submit(item)), { concurrency: "unbounded" })
    )
    expect(exits).toEqual([Exit.succeed("even 2"), Exit.fail("odd 3"), Exit.succeed("even 4")])
  })

  it("writes each item of a failed batch alone, so only the faulty one fails, and goes on with the next batch", async () => {
    const { commit, batches, hold } = recorder(8)
    const [first, later] = await Effect.runPromise(Effect.gen(function*() {
      const opened = hold()
      const broken = yield* Effect.forkChild(Effect.forEach([-1, 2], (item) => Effect.exit(commit.submit(item)), { concurrency: "unbounded" }))
      yield* Effect.yieldNow
      yield* Effect.yieldNow
      const after = yield* Effect.forkChild(commit.submit(4))
      yield* Deferred.succeed(opened, undefined)
      return [yield* Fiber.join(broken), yield* Fiber.join(after)] as const
    }))
    const [faulty, sound] = first
    expect(faulty !== undefined && Exit.isFailure(faulty) && Exit.hasDies(faulty)).toBe(true)
    expect(sound).toEqual(Exit.succeed("even 2"))
    expect(later).toBe("even 4")
    expect(batches).toEqual([[-1, 2], [-1], [2], [4]])
  })

  it("writes the item of a caller that must go alone by itself, even while a batch is being written", async () => {
    let alone = false
    const { commit, batches, hold } = recorder(8, Effect.sync(() => alone))
    const answers = await Effect.runPromise(Effect.gen(function*() {
      const opened = hold()
      const first = yield* Effect.forkChild(commit.submit(0))
      yield* Effect.yieldNow
      yield* Effect.yieldNow
      alone = true
      const own = yield* commit.submit(2)
      alone = false
      yield* Deferred.succeed(opened, undefined)
      return [yield* Fiber.join(first), own]
    }))
    expect(answers).toEqual(["even 0", "even 2"])
    expect(batches).toEqual([[0], [2]])
  })
})
