/**
 * Reads a V8 CPU profile (`node --cpu-prof`, or bench/http.ts with BENCH_PROFILE_DIR) and prints
 * where the time went: the top frames by self time and by total time (a frame counted once per
 * sample however deep it recurses), each as a share of the profile's busy (non-idle) time.
 *
 *   node --import tsx bench/profile-top.ts <file.cpuprofile> [top (25)] [filter]
 *
 * `filter`, a substring of a frame's function name or file, prints only matching frames: e.g.
 * `provideContext` for HttpApiBuilder's per-request context. PROFILE_UNDER, a substring of a
 * frame, counts only the samples below such a frame (e.g. `parserOnIncoming`, node:http's
 * request handling), leaving out start-up and seeding.
 */
import { readFileSync } from "node:fs"

interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
}

interface ProfileNode {
  readonly id: number
  readonly callFrame: CallFrame
  readonly children?: ReadonlyArray<number>
}

interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

// Frames that are not work: the event loop waiting, and the profiler's bookkeeping.
const IDLE = new Set(["(idle)", "(program)", "(garbage collector)"])

const frameName = (frame: CallFrame): string => {
  const file = frame.url.replace(/^file:\/\//, "").replace(/^.*node_modules\//, "").replace(/^.*\/packages\//, "packages/")
  return `${frame.functionName === "" ? "(anonymous)" : frame.functionName} ${file === "" ? "" : `${file}:${frame.lineNumber + 1}`}`.trim()
}

/** Self and total microseconds per frame, and the profile's busy and GC time. */
export const summarise = (profile: Profile, under?: string) => {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const self = new Map<string, number>()
  const total = new Map<string, number>()
  let busy = 0
  let gc = 0
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0
    const node = byId.get(id)
    if (node === undefined) return
    const name = node.callFrame.functionName
    const stack: Array<ProfileNode> = []
    for (let current: number | undefined = id; current !== undefined; current = parent.get(current)) {
      const frame = byId.get(current)
      if (frame !== undefined) stack.push(frame)
    }
    if (under !== undefined && !stack.some((frame) => frameName(frame.callFrame).includes(under))) return
    if (name === "(garbage collector)") gc += delta
    if (IDLE.has(name) && name !== "(garbage collector)") return
    busy += delta
    const key = frameName(node.callFrame)
    self.set(key, (self.get(key) ?? 0) + delta)
    const seen = new Set<string>()
    for (const frame of stack) {
      const frameKey = frameName(frame.callFrame)
      if (seen.has(frameKey)) continue
      seen.add(frameKey)
      total.set(frameKey, (total.get(frameKey) ?? 0) + delta)
    }
  })
  return { self, total, busy, gc }
}

const [file, topArg, filter] = process.argv.slice(2)
if (file === undefined) {
  console.error("usage: node --import tsx bench/profile-top.ts <file.cpuprofile> [top] [filter]")
  process.exit(2)
}
const top = Number(topArg ?? "25")
const { self, total, busy, gc } = summarise(
  JSON.parse(readFileSync(file, "utf8")) as Profile,
  process.env.PROFILE_UNDER === undefined || process.env.PROFILE_UNDER === "" ? undefined : process.env.PROFILE_UNDER
)
const share = (micros: number) => `${((100 * micros) / Math.max(1, busy)).toFixed(1).padStart(5)} %`
const table = (title: string, values: Map<string, number>) => {
  console.log(`\n${title}`)
  const rows = [...values.entries()]
    .filter(([name]) => filter === undefined || name.includes(filter))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
  for (const [name, micros] of rows) console.log(`  ${share(micros)}  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${name}`)
}
console.log(`busy ${(busy / 1000).toFixed(0)} ms (garbage collector ${share(gc).trim()} of it)`)
table("self time", self)
table("total time", total)
