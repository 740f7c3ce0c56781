import { spawn, spawnSync } from "node:child_process"
import { readdirSync, readFileSync } from "node:fs"
import { afterEach, describe, expect, it } from "vitest"
import { canPin, pinMainThreadToCpu0 } from "../processes.js"

// The CPUs each thread of process `pid` may run on, main thread first (its id is the pid).
const threadCpus = (pid: number): Array<{ readonly task: string; readonly main: boolean; readonly cpus: string }> =>
  readdirSync(`/proc/${pid}/task`).map((task) => ({
    task,
    main: task === String(pid),
    cpus: /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/task/${task}/status`, "utf8"))?.[1] ?? ""
  }))

// The benchmark's CPU pinning (bench/http.ts): a signcraft server's JavaScript on CPU 0, its other
// threads on either CPU, even though the benchmark that starts it has moved to CPU 1 by then.
describe("pinning a server's main thread", () => {
  const children: Array<{ kill: () => boolean }> = []
  afterEach(() => {
    for (const child of children.splice(0)) child.kill()
  })

  it("puts the main thread on CPU 0 and lets the threads it started use either CPU", async () => {
    // This machine runs the benchmark pinned; without taskset or a second CPU the benchmark does not pin.
    expect(canPin()).toBe(true)
    const child = spawn(process.execPath, ["-e", "setInterval(() => {}, 1000)"], { stdio: "ignore" })
    children.push(child)
    const pid = child.pid ?? 0
    // Node starts its helper threads as it boots: wait (at most 10 s) until they are there.
    for (let waited = 0; threadCpus(pid).length < 3 && waited < 10_000; waited += 50) {
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    // Started from a process on CPU 1, as the benchmark's servers are.
    spawnSync("taskset", ["-a", "-cp", "1", String(pid)], { stdio: "ignore" })
    const started = threadCpus(pid)
    expect(started.every((thread) => thread.cpus === "1")).toBe(true)
    pinMainThreadToCpu0(pid)
    // The threads it had started; one Node starts later (a busy machine boots it slowly) takes the
    // main thread's CPU at its creation, which pinning does not decide.
    const startedTasks = new Set(started.map((thread) => thread.task))
    const threads = threadCpus(pid).filter((thread) => startedTasks.has(thread.task))
    expect(threads.length).toBeGreaterThan(1)
    for (const thread of threads) expect(thread.cpus).toBe(thread.main ? "0" : "0-1")
  })
})
