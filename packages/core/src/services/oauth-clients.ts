import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { randomBase62 } from "../domain/api-key.js"
import { OAuthError } from "../domain/oauth/errors.js"
import { type ClientGrantType, checkRegistration } from "../domain/oauth/registration.js"
import { isScope, type Scope } from "../domain/scopes.js"
import { Settings } from "./settings.js"

/** A registered connector client. */
export interface OAuthClient {
  readonly client_id: string
  readonly client_name: string | null
  readonly redirect_uris: ReadonlyArray<string>
  readonly grant_types: ReadonlyArray<ClientGrantType>
  readonly scope: ReadonlyArray<Scope> | null
  /** Registered by the operator rather than self-registered; self-registered clients show as Unverified. */
  readonly verified: boolean
  readonly created_at: Date
}

interface ClientRow {
  readonly client_id: string
  readonly client_name: string | null
  readonly redirect_uris: ReadonlyArray<string>
  readonly grant_types: ReadonlyArray<ClientGrantType>
  readonly scope: ReadonlyArray<string> | null
  readonly verified: boolean
  readonly created_at: Date
}

const toClient = (row: ClientRow): OAuthClient => ({ ...row, scope: row.scope === null ? null : row.scope.filter(isScope) })

/** Registrations that never obtained a token are dropped after this long. */
export const UNUSED_CLIENT_RETENTION_HOURS = 24
/** Clients not used for this long (well past the refresh-token lifetime) are dropped. */
export const IDLE_CLIENT_RETENTION_DAYS = 90

/** Dynamic client registration (RFC 7591) with its per-IP quotas, lookup and pruning. */
export class OAuthClients extends Context.Service<OAuthClients, {
  /**
   * Registers a client. Every attempt, valid or not, first counts against the caller's
   * hourly and daily quotas (sliding windows).
   */
  readonly register: (body: unknown, ip: string) => Effect.Effect<OAuthClient, OAuthError>
  readonly find: (clientId: string) => Effect.Effect<OAuthClient | undefined>
  /** Records that a client obtained a token now. */
  readonly markUsed: (clientId: string) => Effect.Effect<void>
  /** Deletes stale registrations and old registration attempts; returns the clients removed. */
  readonly prune: Effect.Effect<number>
}>()("signcraft/OAuthClients") {
  static readonly layer = Layer.effect(
    OAuthClients,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const settings = yield* Settings

      // Insert first, then count: concurrent attempts each see at least themselves, so
      // the quota can refuse too many but never admit too many.
      const countAttempt = (ip: string) =>
        Effect.gen(function*() {
          yield* sql`INSERT INTO oauth_registration_attempts ${sql.insert({ ip })}`
          const rows = yield* sql<{ hour: number; day: number; hour_wait: number | null; day_wait: number | null }>`
            SELECT
              count(*) FILTER (WHERE attempted_at > now() - interval '1 hour')::int AS hour,
              count(*)::int AS day,
              ceil(extract(epoch FROM min(attempted_at) FILTER (WHERE attempted_at > now() - interval '1 hour')
                + interval '1 hour' - now()))::int AS hour_wait,
              ceil(extract(epoch FROM min(attempted_at) + interval '1 day' - now()))::int AS day_wait
            FROM oauth_registration_attempts
            WHERE ip = ${ip} AND attempted_at > now() - interval '1 day'`
          const row = rows[0]
          if (row === undefined) return
          const waits: Array<number> = []
          if (row.hour > settings.registrationLimitPerHour) waits.push(row.hour_wait ?? 3600)
          if (row.day > settings.registrationLimitPerDay) waits.push(row.day_wait ?? 86400)
          if (waits.length > 0) {
            const retryAfter = Math.max(1, ...waits)
            return yield* new OAuthError({
              error: "rate_limited",
              description: `Too many registrations from this address; retry after ${retryAfter} seconds.`,
              retryAfter
            })
          }
        }).pipe(Effect.catchTag("SqlError", Effect.die))

      return OAuthClients.of({
        register: (body, ip) =>
          Effect.gen(function*() {
            yield* countAttempt(ip)
            const verdict = checkRegistration(body)
            if (verdict._tag === "Invalid") {
              return yield* new OAuthError({ error: verdict.error.error, description: verdict.error.error_description })
            }
            const r = verdict.registration
            const rows = yield* sql<ClientRow>`
              INSERT INTO oauth_clients ${
              sql.insert({
                client_id: `sc_client_${randomBase62(24)}`,
                client_name: r.client_name,
                redirect_uris: JSON.stringify(r.redirect_uris),
                grant_types: JSON.stringify(r.grant_types),
                scope: r.scope === null ? null : JSON.stringify(r.scope),
                registered_ip: ip
              })
            }
              RETURNING client_id, client_name, redirect_uris, grant_types, scope, verified, created_at`.pipe(Effect.orDie)
            const row = rows[0]
            if (row === undefined) return yield* Effect.die(new Error("client insert returned no row"))
            return toClient(row)
          }),
        find: (clientId) =>
          sql<ClientRow>`
            SELECT client_id, client_name, redirect_uris, grant_types, scope, verified, created_at
            FROM oauth_clients WHERE client_id = ${clientId}`.pipe(
            Effect.orDie,
            Effect.map((rows) => (rows[0] === undefined ? undefined : toClient(rows[0])))
          ),
        markUsed: (clientId) =>
          sql`UPDATE oauth_clients SET obtained_token = true, last_used_at = now() WHERE client_id = ${clientId}`.pipe(
            Effect.orDie,
            Effect.asVoid
          ),
        prune: Effect.gen(function*() {
          yield* sql`DELETE FROM oauth_registration_attempts WHERE attempted_at < now() - interval '1 day'`
          const removed = yield* sql`
            DELETE FROM oauth_clients
            WHERE (NOT obtained_token AND created_at < now() - make_interval(hours => ${UNUSED_CLIENT_RETENTION_HOURS}))
               OR (last_used_at < now() - make_interval(days => ${IDLE_CLIENT_RETENTION_DAYS}))
            RETURNING client_id`
          return removed.length
        }).pipe(Effect.orDie)
      })
    })
  )
}
