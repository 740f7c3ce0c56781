/**
 * Webhook delivery: deliveries per second to a local receiver, and the delay from an event's
 * commit to its delivery (answer received and recorded). Targets: > 500 deliveries/s and
 * p99 delay < 1 s.
 *
 *   node --import tsx bench/webhooks.ts        (or `npm run bench`)
 *
 * In this process: the delivery worker (reference-server defaults: 2 lanes of batches of 100,
 * 200 ms idle poll; BENCH_WEBHOOK_LANES and BENCH_WEBHOOK_BATCH override them) over the embedded database, and over PostgreSQL when DATABASE_URL is set (a throwaway
 * database is created and dropped), posting to a node:http receiver in a child process on 127.0.0.1.
 * 1. Throughput: BENCH_WEBHOOK_BACKLOG (3000) events queued first, then drained by one worker.
 * 2. Delay: BENCH_WEBHOOK_RATE (200) events/s for BENCH_WEBHOOK_SECONDS (else BENCH_SECONDS, else 10)
 *    while the worker runs.
 * Every wait is bounded; loopback only.
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Fiber, Layer, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { spawn } from "node:child_process"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { layerWebhookServices } from "../packages/core/src/app.js"
import { sampleEventPayload } from "../packages/core/src/domain/webhooks/topics.js"
import { DeliveryWorker } from "../packages/core/src/services/webhooks/delivery-worker.js"
import { Identity } from "../packages/core/src/services/credentials/identity.js"
import { OutboundHttp } from "../packages/core/src/services/outbound/outbound-http.js"
import { Outbox } from "../packages/core/src/services/webhooks/outbox.js"
import { defaultSettings, Settings } from "../packages/core/src/services/settings.js"
import { WebhookSubscriptions } from "../packages/core/src/services/webhooks/subscriptions.js"
import { type DatabaseConfig, layerDatabase } from "../packages/core/src/storage/database.js"
import { appendSummary } from "./summary.js"

const BACKLOG = Number(process.env.BENCH_WEBHOOK_BACKLOG ?? "3000")
const RATE = Number(process.env.BENCH_WEBHOOK_RATE ?? "200")
const SECONDS = Number(process.env.BENCH_WEBHOOK_SECONDS ?? process.env.BENCH_SECONDS ?? "10")
const TARGET_PER_SECOND = 500
const TARGET_P99_MS = 1000
const DEADLINE_MS = 120_000

// A minimal receiver: answers 200 `{ok: true}` to every POST; prints its port.
const RECEIVER_SOURCE = `
const server = require("node:http").createServer((req, res) => {
  req.resume()
  req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}'))
})
server.listen(0, "127.0.0.1", () => console.log(server.address().port))
`

const percentile = (values: ReadonlyArray<number>, p: number): number => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const summaryRows: Array<string> = []

const runBench = async (name: string, database: DatabaseConfig) => {
  // The receiver runs in its own process, as a real integrator's would.
  const receiver = spawn(process.execPath, ["-e", RECEIVER_SOURCE], { stdio: ["ignore", "pipe", "inherit"] })
  const port = await new Promise<number>((resolve, reject) => {
    receiver.stdout.setEncoding("utf8").once("data", (line: string) => resolve(Number(line.trim())))
    receiver.once("exit", () => reject(new Error("receiver exited")))
  })
  const url = `http://127.0.0.1:${port}/hook`

  const delays: Array<number> = []
  const failures = new Map<string, number>()
  let delivered = 0
  let recording = false
  const settings = Layer.succeed(Settings, defaultSettings({ environment: "test" }))
  const services = Layer.mergeAll(layerWebhookServices, Identity.layer, OutboundHttp.layer).pipe(
    Layer.provideMerge(layerDatabase(database)),
    Layer.provideMerge(settings)
  )
  const worker = DeliveryWorker.layerWith({
    ...(process.env.BENCH_WEBHOOK_LANES === undefined ? {} : { lanes: Number(process.env.BENCH_WEBHOOK_LANES) }),
    ...(process.env.BENCH_WEBHOOK_BATCH === undefined ? {} : { batchSize: Number(process.env.BENCH_WEBHOOK_BATCH) }),
    onAttempt: (claim, result) => {
      if (result.next._tag !== "Delivered") {
        failures.set(result.error ?? "?", (failures.get(result.error ?? "?") ?? 0) + 1)
        return
      }
      delivered += 1
      if (recording) delays.push(Date.now() - claim.eventCreatedAt.getTime())
    }
  })
  const runtime = ManagedRuntime.make(Layer.mergeAll(services, worker.pipe(Layer.provide(services))))
  try {
    const storeId = await runtime.runPromise(Effect.gen(function*() {
      const identity = yield* Identity
      const company = yield* identity.createCompany({ name: "Bench" })
      const store = yield* identity.createStore({ companyId: company.id, name: "Bench", platform: "custom", currency: "USD" })
      yield* (yield* WebhookSubscriptions).create(store.id, { topic: "order:created", url })
      return store.id
    }))
    const payload = sampleEventPayload("order:created")
    const enqueue = (count: number) =>
      runtime.runPromise(Effect.gen(function*() {
        const outbox = yield* Outbox
        for (let i = 0; i < count; i++) yield* outbox.enqueue(storeId, "order:created", payload)
      }))

    // 1. Throughput: drain a backlog.
    await enqueue(BACKLOG)
    const started = performance.now()
    const fiber = await runtime.runPromise(Effect.gen(function*() {
      return yield* Effect.forkDetach((yield* DeliveryWorker).run)
    }))
    const drainDeadline = Date.now() + DEADLINE_MS
    while (delivered < BACKLOG && Date.now() < drainDeadline) await sleep(5)
    const drainSeconds = (performance.now() - started) / 1000
    const perSecond = Math.min(delivered, BACKLOG) / drainSeconds

    // 2. Delay: a steady stream while the worker runs.
    recording = true
    const streamed = RATE * SECONDS
    const before = delivered
    const tick = 50
    const perTick = Math.max(1, Math.round((RATE * tick) / 1000))
    const streamStarted = Date.now()
    for (let sent = 0; sent < streamed; sent += perTick) {
      await enqueue(Math.min(perTick, streamed - sent))
      const due = streamStarted + ((sent + perTick) / RATE) * 1000
      await sleep(Math.max(0, due - Date.now()))
    }
    const streamDeadline = Date.now() + DEADLINE_MS
    while (delivered - before < streamed && Date.now() < streamDeadline) await sleep(5)
    await Effect.runPromise(Fiber.interrupt(fiber))

    const p50 = percentile(delays, 50)
    const p99 = percentile(delays, 99)
    console.log(
      `${name}: throughput ${perSecond.toFixed(0)} deliveries/s (${Math.min(delivered, BACKLOG)} in ${drainSeconds.toFixed(2)} s; target > ${TARGET_PER_SECOND}) ${perSecond > TARGET_PER_SECOND ? "OK" : "BELOW TARGET"}`
    )
    console.log(
      `${name}: delay at ${RATE}/s for ${SECONDS} s: p50 ${p50} ms, p99 ${p99} ms, max ${Math.max(...delays)} ms over ${delays.length} deliveries (target p99 < ${TARGET_P99_MS} ms) ${p99 < TARGET_P99_MS ? "OK" : "ABOVE TARGET"}`
    )
    summaryRows.push(
      `| ${name} | ${perSecond.toFixed(0)} | ${p50} | ${p99} | > ${TARGET_PER_SECOND}/s, p99 < ${TARGET_P99_MS} ms | ${
        perSecond > TARGET_PER_SECOND && p99 < TARGET_P99_MS ? "PASS" : "BELOW"
      } |`
    )
    if (failures.size > 0) console.log(`${name}: failed attempts (retried): ${JSON.stringify(Object.fromEntries(failures))}`)
  } finally {
    await runtime.dispose()
    receiver.kill()
  }
}

const runPg = <A>(url: string, effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(effect.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))))
const statement = (text: string) =>
  Effect.gen(function*() {
    yield* (yield* SqlClient.SqlClient).unsafe(text)
  })

const dataDir = mkdtempSync(join(tmpdir(), "signcraft-bench-webhooks-"))
try {
  await runBench("embedded", { _tag: "Embedded", location: { dataDir } })
} finally {
  rmSync(dataDir, { recursive: true, force: true })
}
const adminUrl = process.env.DATABASE_URL
if (adminUrl === undefined || adminUrl === "") {
  console.log("postgres: skipped (DATABASE_URL is not set)")
} else {
  const name = `signcraft_bench_wh_${process.pid}_${Date.now()}`
  await runPg(adminUrl, statement(`CREATE DATABASE "${name}"`))
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  try {
    await runBench("postgres", { _tag: "Postgres", url: url.toString() })
  } finally {
    await runPg(adminUrl, statement(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).catch(() => {})
  }
}
appendSummary([
  `| webhook delivery (backlog ${BACKLOG}, then ${RATE}/s for ${SECONDS} s) | deliveries/s | delay p50 ms | delay p99 ms | target | verdict |`,
  "|---|---:|---:|---:|---|---|",
  ...summaryRows
].join("\n"))
