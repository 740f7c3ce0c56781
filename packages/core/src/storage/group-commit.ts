import { Deferred, Effect, Exit, Option } from "effect"
import type { SqlClient } from "effect/sql"

/** A batch's answer for one of its items. */
export type ItemExit<O, E> = Exit.Exit<O, E>

/** How a group commit writes a batch. */
export interface GroupCommitOptions<I, O, E> {
  /** The most items one batch carries. */
  readonly maxBatch: number
  /** How many batches may be written at once (at least 1). */
  readonly maxConcurrent: number
  /** Writes a batch in as few statements as it can; answers one exit per item, in order. */
  readonly write: (items: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<ItemExit<O, E>>>
  /**
   * Whether the submitting caller must write its item alone, in its own context: a caller inside
   * a transaction, whose item has to commit or roll back with it (and whose connection a batch
   * written elsewhere could wait for).
   */
  readonly alone: Effect.Effect<boolean>
}

// What a waiting caller is told: its answer, or that it writes the next batch.
type Signal<O, E> = { readonly _tag: "Answer"; readonly exit: ItemExit<O, E> } | { readonly _tag: "Lead" }

interface Entry<I, O, E> {
  readonly item: I
  readonly signal: Deferred.Deferred<Signal<O, E>>
}

/**
 * Group commit: items submitted while a batch is being written wait, and go together in the next
 * batch. Under load, many callers share one statement (one round trip, one commit); a lone caller
 * waits for nobody.
 *
 * No fiber of its own: a batch is written by one of its callers, which then hands the next batch
 * to the first caller still waiting. Before it takes its batch, that caller yields once to the
 * event loop, so requests whose bytes have arrived meanwhile can join: without it, a database
 * that answers without real I/O (the embedded one) would run each request to its end before
 * reading the next. A submission cannot be interrupted while it waits or is written, as a
 * statement sent is not taken back.
 */
export const makeGroupCommit = <I, O, E>(options: GroupCommitOptions<I, O, E>) => {
  const pending: Array<Entry<I, O, E>> = []
  let writing = 0

  // A batch is one statement, so a batch that fails wrote nothing: each of its items is then
  // written alone, and one caller's fault (or a row the database refuses) costs no other caller.
  const writeBatch = (items: ReadonlyArray<I>): Effect.Effect<ReadonlyArray<ItemExit<O, E>>> =>
    Effect.flatMap(Effect.exit(options.write(items)), (written) => {
      if (Exit.isSuccess(written) && written.value.length === items.length) return Effect.succeed(written.value)
      if (items.length > 1) return Effect.flatMap(Effect.forEach(items, (item) => writeBatch([item])), (exits) => Effect.succeed(exits.flat()))
      const failure: ItemExit<O, E> = Exit.isSuccess(written)
        ? Exit.die(new Error("group commit: the write gave no answer for its item"))
        : Exit.failCause(written.cause)
      return Effect.succeed([failure])
    })

  // Writes `own` and those waiting behind it, answers them, hands the next batch on, and gives
  // `own` its answer.
  const lead = (own: Entry<I, O, E>): Effect.Effect<O, E> =>
    Effect.gen(function*() {
      yield* Effect.yieldNow
      const batch = [own, ...pending.splice(0, options.maxBatch - 1)]
      const exits = yield* writeBatch(batch.map((entry) => entry.item))
      batch.forEach((entry, index) => {
        const exit = exits[index]
        if (entry !== own && exit !== undefined) Deferred.doneUnsafe(entry.signal, Effect.succeed({ _tag: "Answer", exit }))
      })
      const next = pending.shift()
      if (next === undefined) writing -= 1
      else Deferred.doneUnsafe(next.signal, Effect.succeed({ _tag: "Lead" }))
      return yield* exits[0] ?? Exit.die(new Error("group commit: a batch without its leader"))
    })

  /** Submits one item; succeeds or fails as the batch that carried it answered for it. */
  const submit = (item: I): Effect.Effect<O, E> =>
    Effect.uninterruptible(Effect.flatMap(options.alone, (alone) => {
      if (alone) return Effect.flatMap(writeBatch([item]), (exits) => exits[0] ?? Exit.die(new Error("group commit: no answer")))
      const entry: Entry<I, O, E> = { item, signal: Deferred.makeUnsafe<Signal<O, E>>() }
      if (writing < options.maxConcurrent) {
        writing += 1
        return lead(entry)
      }
      pending.push(entry)
      return Effect.flatMap(Deferred.await(entry.signal), (signal) => signal._tag === "Answer" ? signal.exit : lead(entry))
    }))

  return { submit }
}

/** Whether the caller runs inside a transaction of `sql` (see {@link GroupCommitOptions.alone}). */
export const inTransaction = (sql: SqlClient.SqlClient): Effect.Effect<boolean> =>
  Effect.map(Effect.serviceOption(sql.transactionService), Option.isSome)
