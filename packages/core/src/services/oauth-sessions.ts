import { Context, Effect, Layer, Schema } from "effect"
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
export type SignInRefusal = "bad_credentials" | "too_many_attempts"

/** How long a consent-screen session lasts. */
export const SESSION_TTL_HOURS = 8
// Password guesses per address and email: generous for people, useless for guessing.
const SIGN_IN_ATTEMPTS = 10
const SIGN_IN_WINDOW_SECONDS = 300

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
            const normalised = email.trim().toLowerCase()
            const admission = yield* limiter.take(`oauth-sign-in:${ip}:${normalised}`, SIGN_IN_ATTEMPTS, SIGN_IN_WINDOW_SECONDS)
            if (admission._tag === "Limited") return yield* Effect.fail("too_many_attempts" as const)
            const person = yield* orUndefined(findPerson(normalised))
            const stored = person?.passwordHash ?? (yield* Effect.promise(decoyHash))
            const matches = yield* Effect.promise(() => verifyPassword(password, stored))
            if (person === undefined || !matches) return yield* Effect.fail("bad_credentials" as const)
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
