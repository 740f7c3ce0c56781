import { Settings } from "@signcraft/core"
import { IdempotencyStore, OAuthClients, OAuthGrants, OAuthSessions, pruneRetained, RateLimiter } from "@signcraft/core/internal"
import { Cause, Clock, Duration, Effect, Layer, Option } from "effect"
import type { SqlClient } from "effect/sql"
import type { LineOutput } from "./log-output.js"

/** Rate-limit windows older than this are of no further use. */
const RATE_LIMIT_HORIZON_MS = 60 * 60 * 1000

/**
 * One pass: drops finished rate-limit windows and expired idempotency records, what is older
 * than `RETENTION_DAYS` (delivered events, delivery attempts, revoked grants, quotes), and, when
 * the connector's services are present, stale client registrations, old registration
 * attempts, expired sessions, codes and tokens.
 */
export const pruneOnce = Effect.gen(function*() {
  const now = yield* Clock.currentTimeMillis
  yield* (yield* RateLimiter).prune(now - RATE_LIMIT_HORIZON_MS)
  yield* (yield* IdempotencyStore).prune()
  yield* pruneRetained((yield* Settings).retentionDays)
  const clients = yield* Effect.serviceOption(OAuthClients)
  if (Option.isSome(clients)) yield* clients.value.prune
  const grants = yield* Effect.serviceOption(OAuthGrants)
  if (Option.isSome(grants)) yield* grants.value.prune
  const sessions = yield* Effect.serviceOption(OAuthSessions)
  if (Option.isSome(sessions)) yield* sessions.value.prune
})

/**
 * Prunes every `interval` for as long as the server runs. A failed pass is logged and
 * the next one tried as usual: housekeeping must never take the server down.
 */
export const layerPruning = (
  interval: Duration.Input,
  output: LineOutput
): Layer.Layer<never, never, RateLimiter | IdempotencyStore | Settings | SqlClient.SqlClient> =>
  Layer.effectDiscard(
    pruneOnce.pipe(
      Effect.catchCause((cause) =>
        Effect.sync(() =>
          output.json({ time: new Date().toISOString(), level: "error", message: `pruning failed: ${Cause.pretty(cause)}` })
        )
      ),
      Effect.delay(Duration.fromInputUnsafe(interval)),
      Effect.forever,
      Effect.forkScoped
    )
  )
