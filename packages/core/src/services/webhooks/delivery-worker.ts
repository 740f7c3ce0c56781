import { Cause, Context, Duration, Effect, Layer, Random } from "effect"
import { hostname } from "node:os"
import { randomBase62 } from "../../domain/credentials/api-key.js"
import { responseExcerpt } from "../../domain/webhooks/delivery-log.js"
import { nextStepAfter } from "../../domain/webhooks/receiver-answer.js"
import { deliveryHeaders } from "../../domain/webhooks/signature-schemes.js"
import { DeliveryUrlGuard } from "../outbound/delivery-url-guard.js"
import { type DeliveryOutcome, Metrics } from "../operations/metrics.js"
import { OutboundHttp } from "../outbound/outbound-http.js"
import { Settings } from "../settings.js"
import { type AttemptResult, type ClaimedDelivery, WebhookDeliveries } from "./deliveries.js"
import { webhookIdOf } from "../../domain/webhooks/webhook-id.js"

/** Tuning of the delivery worker; the defaults suit the reference server. */
export interface DeliveryWorkerOptions {
  /** How long an idle worker waits before looking for due deliveries again; 200 ms by default. */
  readonly pollIntervalMs?: number
  /** Most deliveries one lane claims (and sends concurrently) at once; 100 by default. */
  readonly batchSize?: number
  /**
   * Independent claim-send-record loops; 2 by default. A batch is recorded when its slowest
   * receiver answers (at most 10 s), so several lanes keep one slow receiver from holding up
   * everyone else's deliveries.
   */
  readonly lanes?: number
  /**
   * How long a claim keeps other workers away. It must outlast one attempt (10 s timeout) and its
   * recording; a worker that dies holding claims delays them by at most this. 30 s by default.
   */
  readonly leaseMs?: number
  /** Receives one line per failed pass (the worker keeps going); discarded by default. */
  readonly log?: (line: Readonly<Record<string, string | number>>) => void
  /** Told of every recorded attempt (benchmarks measure delivery delay with it). */
  readonly onAttempt?: (claim: ClaimedDelivery, result: AttemptResult) => void
}

// What one POST to a receiver came to: a status (any body), or why there was none.
type SendOutcome =
  | { readonly _tag: "Answered"; readonly status: number; readonly body: string; readonly retryAfter: string | undefined }
  | { readonly _tag: "Failed"; readonly error: string }

const OUTCOMES = { Delivered: "delivered", Retry: "retry", GiveUp: "gave_up", Disable: "disabled" } as const satisfies Record<AttemptResult["next"]["_tag"], DeliveryOutcome>

// The receiver's origin only: a delivery URL may carry a token in its path or query.
const originOf = (url: string): string => URL.canParse(url) ? new URL(url).origin : "invalid"

/**
 * Sends due webhook deliveries: claims a batch, POSTs each signed body concurrently, records
 * every attempt and schedules retries (domain/webhooks/retry-schedule.ts). Any number of workers
 * may run, in one process or in several sharing a PostgreSQL; a claim is never sent twice at once.
 */
export class DeliveryWorker extends Context.Service<DeliveryWorker, {
  /** One pass: claims and sends up to a batch of due deliveries; answers how many it sent. */
  readonly runOnce: Effect.Effect<number>
  /** Runs the lanes forever, each waiting the poll interval whenever a pass finds less than a full batch. */
  readonly run: Effect.Effect<never>
  /** This worker's name in claims (`claimed_by`). */
  readonly workerId: string
}>()("signcraft/DeliveryWorker") {
  /** A worker with the given tuning. */
  static readonly layerWith = (options: DeliveryWorkerOptions = {}) =>
    Layer.effect(
      DeliveryWorker,
      Effect.gen(function*() {
        const settings = yield* Settings
        const guard = yield* DeliveryUrlGuard
        const http = yield* OutboundHttp
        const deliveries = yield* WebhookDeliveries
        const metrics = yield* Metrics
        const batchSize = options.batchSize ?? 100
        const lanes = Math.max(1, options.lanes ?? 2)
        const leaseMs = options.leaseMs ?? 30_000
        const pollInterval = Duration.millis(options.pollIntervalMs ?? 200)
        const log = options.log ?? (() => {})
        const workerId = `${hostname()}:${process.pid}:${randomBase62(8)}`

        const send = (claim: ClaimedDelivery): Effect.Effect<SendOutcome> =>
          Effect.gen(function*() {
            const checked = yield* Effect.result(guard.check(claim.url))
            if (checked._tag === "Failure") return { _tag: "Failed", error: `url refused: ${checked.failure.detail}` } as const
            const headers = deliveryHeaders({
              scheme: claim.scheme,
              secret: claim.secret,
              previousSecret: claim.previousSecret,
              messageId: webhookIdOf(claim.eventId),
              topic: claim.topic,
              body: claim.body,
              now: new Date()
            })
            // Only the status counts: an answer cut short or too long still delivered the event.
            return yield* http.post(claim.url, { headers, body: claim.body }).pipe(
              Effect.match({
                onSuccess: (answer): SendOutcome => ({
                  _tag: "Answered",
                  status: answer.status,
                  body: answer.body,
                  retryAfter: answer.retryAfter
                }),
                onFailure: (failure): SendOutcome => ({ _tag: "Failed", error: failure.detail })
              })
            )
          })

        const attempt = (claim: ClaimedDelivery) =>
          Effect.gen(function*() {
            const startedAt = new Date()
            const started = performance.now()
            const outcome = yield* send(claim)
            const durationMs = performance.now() - started
            const random = yield* Random.next
            const answered = outcome._tag === "Answered" ? outcome : undefined
            const next = nextStepAfter({
              status: answered?.status ?? null,
              retryAfter: answered?.retryAfter,
              attempt: claim.attempt,
              firstAttemptAt: claim.firstAttemptAt,
              now: new Date(),
              baseMs: settings.webhookRetryBaseMs,
              random
            })
            const result: AttemptResult = {
              startedAt,
              durationMs,
              responseStatus: answered?.status ?? null,
              responseExcerpt: answered === undefined ? null : responseExcerpt(answered.body),
              error: next._tag === "Delivered"
                ? null
                : outcome._tag === "Answered"
                ? `HTTP ${outcome.status}`
                : outcome.error,
              next
            }
            return { claim, result }
          }).pipe(
            Effect.withSpan("DeliveryWorker.attempt", {
              kind: "client",
              attributes: { "signcraft.delivery_id": claim.id, "signcraft.webhook_topic": claim.topic, "server.origin": originOf(claim.url) }
            })
          )

        // A claimed batch is finished even when the worker is asked to stop: every attempt is
        // bounded by the 10 s timeout, and abandoning it would delay it by a whole lease.
        const runOnce = Effect.uninterruptible(
          Effect.gen(function*() {
            const claims = yield* deliveries.claimDue(workerId, batchSize, leaseMs)
            const results = yield* Effect.forEach(claims, attempt, { concurrency: "unbounded" })
            yield* deliveries.record(workerId, results)
            for (const { claim, result } of results) {
              metrics?.delivery(OUTCOMES[result.next._tag])
              options.onAttempt?.(claim, result)
            }
            return claims.length
          })
        ).pipe(
          Effect.catchCause((cause) =>
            Effect.sync(() => {
              log({ level: "error", message: `webhook delivery pass failed: ${Cause.pretty(cause)}` })
              return 0
            })
          )
        )

        const lane = Effect.gen(function*() {
          const sent = yield* runOnce
          if (sent < batchSize) yield* Effect.sleep(pollInterval)
        }).pipe(Effect.forever)
        const run = Effect.forEach(Array.from({ length: lanes }, () => lane), (loop) => loop, {
          concurrency: "unbounded",
          discard: true
        }).pipe(Effect.andThen(Effect.never))

        return DeliveryWorker.of({ runOnce, run, workerId })
      })
    )
}

/**
 * Runs a delivery worker for as long as the layer lives: closing the layer stops it after the
 * batch in hand. Needs the services of `layerServices` (database, settings) and `OutboundHttp`.
 */
export const layerDeliveryLoop = (options: DeliveryWorkerOptions = {}) =>
  Layer.effectDiscard(
    Effect.gen(function*() {
      const worker = yield* DeliveryWorker
      yield* Effect.forkScoped(worker.run)
    })
  ).pipe(Layer.provide(DeliveryWorker.layerWith(options)))
