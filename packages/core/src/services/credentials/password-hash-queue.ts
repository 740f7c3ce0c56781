import { Effect, Option } from "effect"

/**
 * How much a sign-in is trusted, which decides its place in the queue for a password hash:
 * - `trusted`: from a device that signed in to this account before (OWASP's device cookies);
 * - `clean`: from an address with no failed sign-in in the window;
 * - `suspect`: from an address that failed recently.
 */
export type HashLane = "trusted" | "clean" | "suspect"

const LANES: ReadonlyArray<HashLane> = ["trusted", "clean", "suspect"]

/** The queue's bounds: hashes run at once, and sign-ins that may wait in each lane. */
export interface HashQueueLimits {
  readonly slots: number
  readonly waitingPerLane: number
}

interface Ticket {
  readonly holder: string
  readonly lane: HashLane
  state: "waiting" | "running" | "left"
  start: () => void
}

/**
 * A short, bounded, fair queue for password hashes, in memory (each process hashes on its own
 * threads). Fair: one address holds at most one place, waiting or running, so an address cannot
 * take every slot; a full lane refuses at once rather than grow. Trusted sign-ins go first, then
 * clean ones; suspect sign-ins never take the last free slot, so a person who signs in from a
 * known device or a clean address waits for at most the hashes already running.
 */
export const makeHashQueue = (limits: HashQueueLimits) => {
  const waiting: Record<HashLane, Array<Ticket>> = { trusted: [], clean: [], suspect: [] }
  const holders = new Set<string>()
  let running = 0

  const startable = (lane: HashLane) => running < (lane === "suspect" ? limits.slots - 1 : limits.slots)

  const dispatch = () => {
    for (const lane of LANES) {
      const queue = waiting[lane]
      while (queue.length > 0 && startable(lane)) {
        const next = queue.shift()
        if (next === undefined) break
        next.state = "running"
        running++
        next.start()
      }
    }
  }

  const leave = (ticket: Ticket) => {
    if (ticket.state === "left") return
    if (ticket.state === "running") running--
    else waiting[ticket.lane].splice(waiting[ticket.lane].indexOf(ticket), 1)
    ticket.state = "left"
    holders.delete(ticket.holder)
    dispatch()
  }

  /**
   * Runs `task` when a slot frees for `address` in `lane`; nothing when the address already holds
   * a place or the lane is full. A sign-in given up while waiting leaves its place.
   */
  const run = <A, E, R>(address: string, lane: HashLane, task: Effect.Effect<A, E, R>): Effect.Effect<Option.Option<A>, E, R> =>
    Effect.uninterruptibleMask((restore) => {
      // A trusted sign-in holds a place of its own beside its address's other sign-ins.
      const holder = `${lane === "trusted" ? "trusted" : "address"}:${address}`
      if (holders.has(holder) || waiting[lane].length >= limits.waitingPerLane) return Effect.succeed(Option.none())
      const ticket: Ticket = { holder, lane, state: "waiting", start: () => undefined }
      holders.add(holder)
      const started = Effect.callback<void>((resume) => {
        if (ticket.state === "running") return resume(Effect.void)
        ticket.start = () => resume(Effect.void)
      })
      waiting[lane].push(ticket)
      dispatch()
      return restore(Effect.andThen(started, task)).pipe(
        Effect.map(Option.some),
        Effect.ensuring(Effect.sync(() => leave(ticket)))
      )
    })

  return {
    run,
    /** Hashes running and sign-ins waiting, for tests and diagnostics. */
    load: () => ({ running, waiting: waiting.trusted.length + waiting.clean.length + waiting.suspect.length })
  }
}
