import { Context, Effect, Layer, Option, Schema, Semaphore } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { hashSecret, newSecret } from "../domain/oauth/tokens.js"
import { hashPassword, verifyPassword } from "../domain/password.js"
import { orUndefined } from "./oauth/rows.js"
import { RateLimiter } from "./rate-limiter.js"

/** A signed-in merchant person on the consent screen. */
export interface PersonSession {
  readonly personId: number
  /** Who is signed in, as the consent screen shows it. */
  readonly email: string
  /** The anti-forgery token the consent form must echo. */
  readonly csrfToken: string
}

/** A Store the person may connect: one of a company they belong to. */
export interface ConnectableStore {
  readonly id: number
  readonly name: string
  readonly companyName: string
}

// A person's sign-in credentials, a live session and a connectable Store, as their rows decode.
const PersonRow = Schema.Struct({ id: Schema.Int, email: Schema.String, passwordHash: Schema.String })
const SessionRow = Schema.Struct({ personId: Schema.Int, email: Schema.String, csrfToken: Schema.String })
const StoreRow = Schema.Struct({ id: Schema.Int, name: Schema.String, companyName: Schema.String }).pipe(
  Schema.encodeKeys({ companyName: "company_name" })
)

/** Why a sign-in was refused. */
export type SignInRefusal =
  | { readonly _tag: "BadCredentials" }
  /** Longer than any email can be: refused before any work. */
  | { readonly _tag: "InvalidEmail" }
  /** Too many failed sign-ins from this address, or for this account. */
  | { readonly _tag: "TooManyAttempts"; readonly retryAfterSeconds: number }
  /** Every password-hash slot of this process is taken. */
  | { readonly _tag: "Busy"; readonly retryAfterSeconds: number }

/** How long a consent-screen session lasts. */
export const SESSION_TTL_HOURS = 8
/** The longest email a sign-in looks at (RFC 5321's limit on a path); a longer one is refused unread. */
export const MAX_EMAIL_LENGTH = 254
/**
 * Failed sign-ins allowed per client address whatever the emails (guessing across accounts), and
 * per account whatever the addresses (guessing one password), in a window: generous for people,
 * useless for guessing.
 */
export const FAILED_SIGN_INS_PER_ADDRESS = 20
export const FAILED_SIGN_INS_PER_ACCOUNT = 10
export const FAILED_SIGN_IN_WINDOW_SECONDS = 900
/**
 * Password hashes (scrypt: about 0.7 s and 128 MiB each) this process runs at once. Sign-ins
 * past it are refused at once (429), never queued, so they can neither exhaust memory nor fill
 * the thread pool that DNS lookups and file access share.
 */
export const MAX_CONCURRENT_PASSWORD_HASHES = 2

/** Sign-in of merchant persons for the consent screen, and the Stores they may connect. */
export class OAuthSessions extends Context.Service<OAuthSessions, {
  /** Checks the password and opens a session; returns the session secret (the cookie value). */
  readonly signIn: (
    email: string,
    password: string,
    ip: string
  ) => Effect.Effect<{ readonly token: string; readonly session: PersonSession }, SignInRefusal>
  readonly find: (token: string) => Effect.Effect<PersonSession | undefined>
  readonly storesOf: (personId: number) => Effect.Effect<ReadonlyArray<ConnectableStore>>
  /** Whether the person has approved the client before (a grant of theirs, live or not). */
  readonly hasApproved: (personId: number, clientId: string) => Effect.Effect<boolean>
  readonly prune: Effect.Effect<void>
}>()("signcraft/OAuthSessions") {
  static readonly layer = Layer.effect(
    OAuthSessions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const limiter = yield* RateLimiter
      // Unknown emails still cost one scrypt run, so timing does not reveal who has an account.
      let decoy: Promise<string> | undefined
      const decoyHash = () => (decoy ??= hashPassword("signcraft-decoy-password"))
      const hashSlots = Semaphore.makeUnsafe(MAX_CONCURRENT_PASSWORD_HASHES)
      const refuse = (refusal: SignInRefusal) => Effect.fail(refusal)

      const findPerson = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: PersonRow,
        execute: (email) => sql`SELECT id, email, password_hash AS "passwordHash" FROM persons WHERE lower(email) = ${email}`
      })
      const findSession = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: SessionRow,
        execute: (sessionHash) =>
          sql`
            SELECT s.person_id AS "personId", p.email, s.csrf_token AS "csrfToken"
            FROM oauth_sessions s JOIN persons p ON p.id = s.person_id
            WHERE s.session_hash = ${sessionHash} AND s.expires_at > now()`
      })
      const findStores = SqlSchema.findAll({
        Request: Schema.Int,
        Result: StoreRow,
        execute: (personId) =>
          sql`
            SELECT s.id, s.name, c.name AS company_name
            FROM memberships m JOIN stores s ON s.company_id = m.company_id JOIN companies c ON c.id = m.company_id
            WHERE m.person_id = ${personId} ORDER BY s.id`
      })

      return OAuthSessions.of({
        signIn: (email, password, ip) =>
          Effect.gen(function*() {
            if (email.length > MAX_EMAIL_LENGTH) return yield* refuse({ _tag: "InvalidEmail" })
            const normalised = email.trim().toLowerCase()
            const addressBucket = `oauth-sign-in-failures:address:${ip}`
            const accountBucket = `oauth-sign-in-failures:account:${normalised}`
            for (const [bucket, limit] of [[addressBucket, FAILED_SIGN_INS_PER_ADDRESS], [accountBucket, FAILED_SIGN_INS_PER_ACCOUNT]] as const) {
              const left = yield* limiter.spent(bucket, limit, FAILED_SIGN_IN_WINDOW_SECONDS)
              if (left._tag === "Limited") return yield* refuse({ _tag: "TooManyAttempts", retryAfterSeconds: left.retryAfterSeconds })
            }
            const checked = yield* Effect.gen(function*() {
              const person = yield* orUndefined(findPerson(normalised))
              const stored = person?.passwordHash ?? (yield* Effect.promise(decoyHash))
              const matches = yield* Effect.promise(() => verifyPassword(password, stored))
              return matches ? person : undefined
            }).pipe(hashSlots.withPermitsIfAvailable(1))
            if (Option.isNone(checked)) return yield* refuse({ _tag: "Busy", retryAfterSeconds: 1 })
            const person = checked.value
            if (person === undefined) {
              yield* limiter.take(addressBucket, FAILED_SIGN_INS_PER_ADDRESS, FAILED_SIGN_IN_WINDOW_SECONDS)
              yield* limiter.take(accountBucket, FAILED_SIGN_INS_PER_ACCOUNT, FAILED_SIGN_IN_WINDOW_SECONDS)
              return yield* refuse({ _tag: "BadCredentials" })
            }
            const token = newSecret("sc_sess_")
            const csrfToken = newSecret("sc_csrf_")
            yield* sql`
              INSERT INTO oauth_sessions (session_hash, person_id, csrf_token, expires_at)
              VALUES (${hashSecret(token)}, ${person.id}, ${csrfToken}, now() + make_interval(hours => ${SESSION_TTL_HOURS}))`
              .pipe(Effect.orDie)
            return { token, session: { personId: person.id, email: person.email, csrfToken } }
          }),
        find: (token) => orUndefined(findSession(hashSecret(token))),
        storesOf: (personId) => findStores(personId).pipe(Effect.orDie),
        hasApproved: (personId, clientId) =>
          sql`SELECT 1 FROM oauth_grants WHERE person_id = ${personId} AND client_id = ${clientId} LIMIT 1`.pipe(
            Effect.orDie,
            Effect.map((rows) => rows.length > 0)
          ),
        prune: sql`DELETE FROM oauth_sessions WHERE expires_at < now()`.pipe(Effect.orDie, Effect.asVoid)
      })
    })
  )
}
