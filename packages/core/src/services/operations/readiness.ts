import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { ServiceUnavailable } from "../../domain/errors.js"
import { LATEST_MIGRATION_ID } from "../../storage/migrations/index.js"
import { OUTAGE_RETRY_AFTER_SECONDS } from "../../storage/outage.js"
import { MIGRATIONS_TABLE } from "../../storage/schema-setup.js"

// A probe must answer before the orchestrator's own timeout (often 1 to 5 s): a database that
// takes longer than this to answer one small read is not ready to serve.
const READINESS_TIMEOUT = "2 seconds"

const notReady = new ServiceUnavailable({ retryAfter: OUTAGE_RETRY_AFTER_SECONDS })

/** Whether this process can serve requests now: its database answers and is migrated to this release. */
export class Readiness extends Context.Service<Readiness, {
  /** Succeeds when ready; fails with `ServiceUnavailable` when the database does not answer in time or lags behind. */
  readonly check: () => Effect.Effect<void, ServiceUnavailable>
}>()("signcraft/Readiness") {
  static readonly layer = Layer.effect(
    Readiness,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const check = Effect.fn("Readiness.check")(function*() {
        const rows = yield* sql<{ readonly latest: number | null }>`
          SELECT max(migration_id) AS latest FROM ${sql(MIGRATIONS_TABLE)}`.pipe(
          Effect.timeoutOrElse({ duration: READINESS_TIMEOUT, orElse: () => Effect.fail(notReady) }),
          // Whatever the database answers instead of a row (a lost connection, a restart) is "not ready".
          Effect.catchTag("SqlError", () => Effect.fail(notReady))
        )
        const latest = rows[0]?.latest ?? 0
        if (latest < LATEST_MIGRATION_ID) return yield* Effect.fail(notReady)
      })
      return Readiness.of({ check })
    })
  )
}
