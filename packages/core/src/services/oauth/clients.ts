import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { randomBase62 } from "../../domain/credentials/api-key.js"
import { checkMetadataDocument, classifyClientId, documentFreshness } from "../../domain/oauth/client-metadata-document.js"
import { ClientDocumentRefused, OAuthError } from "../../domain/oauth/errors.js"
import { type ClientGrantType, checkRegistration } from "../../domain/oauth/registration.js"
import type { Scope } from "../../domain/credentials/scopes.js"
import { JsonStrings, jsonb, orUndefined, StoredScopes, storedJson, Timestamp } from "./rows.js"
import { ClientMetadataFetch, type FetchedDocument } from "./client-metadata-fetch.js"
import { Settings } from "../settings.js"
import { snakeStruct } from "../../storage/table.js"

/** A registered connector client (RFC 7591 metadata: `clientId` is `client_id`, and so on). */
export interface OAuthClient {
  readonly clientId: string
  readonly clientName: string | null
  readonly redirectUris: ReadonlyArray<string>
  readonly grantTypes: ReadonlyArray<ClientGrantType>
  readonly scope: ReadonlyArray<Scope> | null
  /** Registered by the operator rather than self-registered; self-registered clients show as Unverified. */
  readonly verified: boolean
  /** Known by the metadata document at `clientId` (a URL) rather than by a registration made here. */
  readonly metadataDocument: boolean
  readonly createdAt: Date
}

const GRANT_TYPES: ReadonlyArray<ClientGrantType> = ["authorization_code", "refresh_token"]

// A row of `oauth_clients`, decoded straight into the record.
const ClientRow = snakeStruct({
  clientId: Schema.String,
  clientName: Schema.NullOr(Schema.String),
  redirectUris: JsonStrings,
  grantTypes: storedJson(Schema.Array(Schema.Literals(GRANT_TYPES))),
  scope: Schema.NullOr(StoredScopes),
  verified: Schema.Boolean,
  metadataDocument: Schema.Boolean,
  createdAt: Timestamp
})

// The caller's registration attempts in the last hour and day, and the seconds until each window frees one.
const AttemptCounts = snakeStruct({
  hour: Schema.Int,
  day: Schema.Int,
  hourWait: Schema.NullOr(Schema.Int),
  dayWait: Schema.NullOr(Schema.Int)
})

/** Registrations that never obtained a token are dropped after this long. */
export const UNUSED_CLIENT_RETENTION_HOURS = 24
/** Clients not used for this long (well past the refresh-token lifetime) are dropped. */
export const IDLE_CLIENT_RETENTION_DAYS = 90

/**
 * Dynamic client registration (RFC 7591) with its per-IP quotas, a global cap on clients that
 * never obtained a token (`unusedClientCap`), lookup and pruning.
 */
export class OAuthClients extends Context.Service<OAuthClients, {
  /**
   * Registers a client. Every attempt, valid or not, first counts against the caller's
   * hourly and daily quotas (sliding windows).
   */
  readonly register: (body: unknown, ip: string) => Effect.Effect<OAuthClient, OAuthError>
  /** The client known by this id: registered here, or a metadata document fetched before. Fetches nothing. */
  readonly find: (clientId: string) => Effect.Effect<OAuthClient | undefined>
  /**
   * The client an authorization request names: {@link find} for a registration's id; for a
   * metadata document's URL, the document as last fetched while still fresh, else fetched (and
   * kept) now. `ip` is the requester's, recorded on a document seen for the first time.
   */
  readonly resolve: (clientId: string, ip: string) => Effect.Effect<OAuthClient | undefined, ClientDocumentRefused>
  /** Records that a client obtained a token now. */
  readonly markUsed: (clientId: string) => Effect.Effect<void>
  /** Deletes stale registrations and old registration attempts; returns the clients removed. */
  readonly prune: Effect.Effect<number>
}>()("signcraft/OAuthClients") {
  /** Over the database, fetching metadata documents under the deployment's URL policy. */
  static readonly layer = Layer.effect(
    OAuthClients,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const settings = yield* Settings

      const countAttempts = SqlSchema.findOne({
        Request: Schema.String,
        Result: AttemptCounts,
        execute: (ip) =>
          sql`
            SELECT
              count(*) FILTER (WHERE attempted_at > now() - interval '1 hour')::int AS hour,
              count(*)::int AS day,
              ceil(extract(epoch FROM min(attempted_at) FILTER (WHERE attempted_at > now() - interval '1 hour')
                + interval '1 hour' - now()))::int AS hour_wait,
              ceil(extract(epoch FROM min(attempted_at) + interval '1 day' - now()))::int AS day_wait
            FROM oauth_registration_attempts
            WHERE ip = ${ip} AND attempted_at > now() - interval '1 day'`
      })

      // Insert first, then count: concurrent attempts each see at least themselves, so
      // the quota can refuse too many but never admit too many.
      const countAttempt = (ip: string) =>
        Effect.gen(function*() {
          yield* sql`INSERT INTO oauth_registration_attempts ${sql.insert({ ip })}`
          const row = yield* countAttempts(ip)
          const waits: Array<number> = []
          if (row.hour > settings.registrationLimitPerHour) waits.push(row.hourWait ?? 3600)
          if (row.day > settings.registrationLimitPerDay) waits.push(row.dayWait ?? 86400)
          if (waits.length > 0) {
            const retryAfter = Math.max(1, ...waits)
            return yield* new OAuthError({
              error: "rate_limited",
              description: `Too many registrations from this address; retry after ${retryAfter} seconds.`,
              retryAfter
            })
          }
        }).pipe(Effect.catchTags({ SqlError: Effect.die, SchemaError: Effect.die, NoSuchElementError: Effect.die }))

      const insertClient = SqlSchema.findOne({
        Request: Schema.Struct({
          clientId: Schema.String,
          clientName: Schema.NullOr(Schema.String),
          redirectUris: Schema.Array(Schema.String),
          grantTypes: Schema.Array(Schema.String),
          scope: Schema.NullOr(Schema.Array(Schema.String)),
          ip: Schema.String
        }),
        Result: ClientRow,
        execute: (client) =>
          sql`
            INSERT INTO oauth_clients (client_id, client_name, redirect_uris, grant_types, scope, registered_ip)
            VALUES (${client.clientId}, ${client.clientName}, ${jsonb(client.redirectUris)}::jsonb,
              ${jsonb(client.grantTypes)}::jsonb, ${client.scope === null ? null : jsonb(client.scope)}::jsonb, ${client.ip})
            RETURNING client_id, client_name, redirect_uris, grant_types, scope, verified, metadata_document, created_at`
      })

      // Keeps the registrations that never obtained a token to the cap, whatever the addresses
      // they came from: the oldest go first. One statement, over unused clients the cap itself
      // keeps few, so a registration at the cap costs what one below it does and still succeeds.
      const evictOldestUnused = sql`
        DELETE FROM oauth_clients WHERE client_id IN (
          SELECT client_id FROM oauth_clients WHERE NOT obtained_token
          ORDER BY created_at DESC, client_id DESC OFFSET ${settings.unusedClientCap}
        )`.pipe(Effect.orDie, Effect.asVoid)

      const findClient = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: ClientRow,
        execute: (clientId) =>
          sql`
            SELECT client_id, client_name, redirect_uris, grant_types, scope, verified, metadata_document, created_at
            FROM oauth_clients WHERE client_id = ${clientId}`
      })

      const fetcher = yield* ClientMetadataFetch

      const findFreshDocument = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: ClientRow,
        execute: (clientId) =>
          sql`
            SELECT client_id, client_name, redirect_uris, grant_types, scope, verified, metadata_document, created_at
            FROM oauth_clients
            WHERE client_id = ${clientId} AND metadata_document AND document_fresh_until > now()`
      })

      // The document as fetched now replaces what was kept; its grants (same client_id) stay.
      const keepDocument = SqlSchema.findOne({
        Request: Schema.Struct({
          clientId: Schema.String,
          clientName: Schema.String,
          redirectUris: Schema.Array(Schema.String),
          grantTypes: Schema.Array(Schema.String),
          scope: Schema.NullOr(Schema.Array(Schema.String)),
          freshSeconds: Schema.Int,
          ip: Schema.String
        }),
        Result: ClientRow,
        execute: (document) =>
          sql`
            INSERT INTO oauth_clients (client_id, client_name, redirect_uris, grant_types, scope, registered_ip,
              metadata_document, document_fresh_until)
            VALUES (${document.clientId}, ${document.clientName}, ${jsonb(document.redirectUris)}::jsonb,
              ${jsonb(document.grantTypes)}::jsonb, ${document.scope === null ? null : jsonb(document.scope)}::jsonb,
              ${document.ip}, true, now() + make_interval(secs => ${document.freshSeconds}))
            ON CONFLICT (client_id) DO UPDATE SET client_name = EXCLUDED.client_name,
              redirect_uris = EXCLUDED.redirect_uris, grant_types = EXCLUDED.grant_types, scope = EXCLUDED.scope,
              document_fresh_until = EXCLUDED.document_fresh_until
            WHERE oauth_clients.metadata_document
            RETURNING client_id, client_name, redirect_uris, grant_types, scope, verified, metadata_document, created_at`
      })

      const refused = (description: string) => new ClientDocumentRefused({ description })

      // What a fetched document says, or why it cannot be used.
      const readDocument = (url: string, fetched: FetchedDocument) =>
        Effect.gen(function*() {
          if (fetched.status !== 200) return yield* refused(`The client metadata document at ${url} answered HTTP ${fetched.status}.`)
          if (!fetched.whole) return yield* refused(`The client metadata document at ${url} is over 64 KB or was cut off.`)
          let document: unknown
          try {
            document = JSON.parse(fetched.body)
          } catch {
            return yield* refused(`The client metadata document at ${url} is not JSON.`)
          }
          const verdict = checkMetadataDocument(url, document)
          if (verdict._tag === "Invalid") return yield* refused(`The client metadata document at ${url} cannot be used: ${verdict.description}`)
          return verdict.registration
        })

      const resolveDocument = (url: string, ip: string) =>
        Effect.gen(function*() {
          const kept = yield* orUndefined(findFreshDocument(url))
          if (kept !== undefined) return kept
          const fetched = yield* fetcher.fetch(url).pipe(
            Effect.mapError((failure) =>
              refused(`The client metadata document at ${url} could not be fetched (${failure.reason}: ${failure.detail}).`)
            )
          )
          const registration = yield* readDocument(url, fetched)
          const client: OAuthClient = yield* keepDocument({
            clientId: url,
            clientName: registration.client_name,
            redirectUris: registration.redirect_uris,
            grantTypes: registration.grant_types,
            scope: registration.scope,
            freshSeconds: documentFreshness(fetched.caching),
            ip
          }).pipe(Effect.orDie)
          yield* evictOldestUnused
          return client
        })

      return OAuthClients.of({
        resolve: Effect.fn("OAuthClients.resolve")(function*(clientId, ip) {
            const kind = classifyClientId(clientId, settings.environment)
            if (kind._tag === "Refused") return yield* refused(kind.description)
            if (kind._tag === "Registered") return yield* orUndefined(findClient(clientId))
            return yield* resolveDocument(clientId, ip)
          }),
        register: Effect.fn("OAuthClients.register")(function*(body, ip) {
            yield* countAttempt(ip)
            const verdict = checkRegistration(body)
            if (verdict._tag === "Invalid") {
              return yield* new OAuthError({ error: verdict.error.error, description: verdict.error.error_description })
            }
            const r = verdict.registration
            const client: OAuthClient = yield* insertClient({
              clientId: `sc_client_${randomBase62(24)}`,
              clientName: r.client_name,
              redirectUris: r.redirect_uris,
              grantTypes: r.grant_types,
              scope: r.scope,
              ip
            }).pipe(Effect.orDie)
            yield* evictOldestUnused
            return client
          }),
        find: (clientId) => orUndefined(findClient(clientId)),
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
  ).pipe(Layer.provide(ClientMetadataFetch.layer))
}
