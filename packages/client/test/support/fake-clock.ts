import type { Clock } from "../../src/clock.js"

/** A clock that never sleeps: `sleep` records the wait and moves time forward by it. */
export const fakeClock = (start = Date.now()) => {
  let now = start
  const sleeps: Array<number> = []
  const clock: Clock = {
    now: () => now,
    sleep: async (ms) => {
      sleeps.push(ms)
      now += ms
    }
  }
  return { clock, sleeps: sleeps as ReadonlyArray<number>, advance: (ms: number) => {
      now += ms
    } }
}
