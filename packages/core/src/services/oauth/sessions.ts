import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient, SqlSchema } from "effect/sql"
import { deviceCookieKey, issueDeviceCookie, readDeviceCookie } from "../../domain/oauth/device-cookie.js"
import { hashSecret, newSecret } from "../../domain/oauth/tokens.js"
import { hashPassword, needsRehash, verifyPassword } from "../../domain/credentials/password.js"
import { CursorKey } from "../credentials/cursor-key.js"
import { orUndefined } from "./rows.js"
import { type HashLane, makeHashQueue } from "../credentials/password-hash-queue.js"
import { RateLimiter } from "../requests/rate-limiter.js"
import { snakeStruct } from "../../storage/table.js"

/** A signed-in merchant person (consent screen and dashboard share the session). */
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
const PersonRow = snakeStruct({ id: Schema.Int, email: Schema.String, passwordHash: Schema.String })
const SessionRow = snakeStruct({ personId: Schema.Int, email: Schema.String, csrfToken: Schema.String })
const StoreRow = snakeStruct({ id: Schema.Int, name: Schema.String, companyName: Schema.String })

/** Why a sign-in was refused. */
export type SignInRefusal =
  | { readonly _tag: "BadCredentials" }
  /** Longer than any email can be: refused before any work. */
  | { readonly _tag: "InvalidEmail" }
  /** Too many sign-ins from this address, or failed ones for this account or device. */
  | { readonly _tag: "TooManyAttempts"; readonly retryAfterSeconds: number }
  /** The address already waits for a password hash, or the queue of its lane is full. */
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
 * Sign-ins per client address in the same window, whatever their outcome: a refusal for a busy
 * queue counts too, so retrying at once is no way around the failure quota.
 */
export const SIGN_INS_PER_ADDRESS = 40
/**
 * Sign-ins per address in the window that may still count as clean (ahead of suspect ones in the
 * hash queue) if none failed: a person signs in a few times, an address retrying past that is
 * treated as suspect even when its tries were only ever turned away.
 */
export const CLEAN_SIGN_INS_PER_ADDRESS = 5
/** Failed sign-ins a device cookie survives in the window before it is treated as unknown. */
export const FAILED_SIGN_INS_PER_DEVICE = 10
/** How long a browser keeps a device cookie after the sign-in that set it. */
export const DEVICE_COOKIE_DAYS = 90
/**
 * Password hashes this process runs at once (`domain/credentials/password.ts`: each holds
 * `PASSWORD_HASH_BYTES`). Few, so they can neither exhaust memory nor fill the thread pool that
 * DNS lookups and file access share; sign-ins past it wait in a short queue
 * (`services/credentials/password-hash-queue.ts`).
 */
export const MAX_CONCURRENT_PASSWORD_HASHES = 2
/** Sign-ins that may wait for a hash in each lane of the queue; a full lane answers 429 at once. */
export const WAITING_SIGN_INS_PER_LANE = 4

/** Sign-in of merchant persons (the consent screen and the dashboard), and the Stores they may reach. */
export class OAuthSessions extends Context.Service<OAuthSessions, {
  /**
   * Checks the password and opens a session; returns the session secret (the cookie value) and a
   * new device cookie value. `device` is the device cookie the browser presented, if any.
   */
  readonly signIn: (
    email: string,
    password: string,
    ip: string,
    device?: string
  ) => Effect.Effect<{ readonly token: string; readonly device: string; readonly session: PersonSession }, SignInRefusal>
  readonly find: (token: string) => Effect.Effect<PersonSession | undefined>
  /** Ends a session (sign-out): its cookie opens nothing from then on. */
  readonly end: (token: string) => Effect.Effect<void>
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
      const deviceKey = deviceCookieKey((yield* CursorKey).secret)
      // Unknown emails still cost one scrypt run, so timing does not reveal who has an account.
      let decoy: Promise<string> | undefined
      const decoyHash = () => (decoy ??= hashPassword("signcraft-decoy-password"))
      const hashQueue = makeHashQueue({ slots: MAX_CONCURRENT_PASSWORD_HASHES, waitingPerLane: WAITING_SIGN_INS_PER_LANE })
      const refuse = (refusal: SignInRefusal) => Effect.fail(refusal)
      const window = FAILED_SIGN_IN_WINDOW_SECONDS
      const heldBy = (admission: { readonly _tag: string; readonly retryAfterSeconds?: number }) =>
        admission._tag === "Limited" ? refuse({ _tag: "TooManyAttempts", retryAfterSeconds: admission.retryAfterSeconds ?? 1 }) : Effect.void

      const findPerson = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: PersonRow,
        execute: (email) => sql`SELECT id, email, password_hash FROM persons WHERE lower(email) = ${email}`
      })
      const findSession = SqlSchema.findOneOption({
        Request: Schema.String,
        Result: SessionRow,
        execute: (sessionHash) =>
          sql`
            SELECT s.person_id, p.email, s.csrf_token
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
        signIn: Effect.fn("OAuthSessions.signIn")(function*(email, password, ip, presentedDevice) {
            if (email.length > MAX_EMAIL_LENGTH) return yield* refuse({ _tag: "InvalidEmail" })
            const normalised = email.trim().toLowerCase()
            const person = yield* orUndefined(findPerson(normalised))
            const addressBucket = `oauth-sign-in-failures:address:${ip}`
            const accountBucket = `oauth-sign-in-failures:account:${normalised}`
            // A device that signed in to this very account before is held only by its own
            // failures: the lockouts guessers set off from elsewhere never reach it.
            const device = presentedDevice === undefined ? undefined : readDeviceCookie(deviceKey, presentedDevice)
            const deviceBucket = device !== undefined && person !== undefined && device.personId === person.id
              ? `oauth-sign-in-failures:device:${device.deviceId}`
              : undefined
            const trusted = deviceBucket !== undefined &&
              (yield* limiter.spent(deviceBucket, FAILED_SIGN_INS_PER_DEVICE, window))._tag === "Admitted"
            let lane: HashLane = "trusted"
            if (!trusted) {
              yield* heldBy(yield* limiter.take(`oauth-sign-ins:address:${ip}`, SIGN_INS_PER_ADDRESS, window))
              yield* heldBy(yield* limiter.spent(addressBucket, FAILED_SIGN_INS_PER_ADDRESS, window))
              yield* heldBy(yield* limiter.spent(accountBucket, FAILED_SIGN_INS_PER_ACCOUNT, window))
              const unfailed = (yield* limiter.spent(addressBucket, 1, window))._tag === "Admitted"
              const few = (yield* limiter.take(`oauth-sign-ins-clean:address:${ip}`, CLEAN_SIGN_INS_PER_ADDRESS, window))._tag === "Admitted"
              lane = unfailed && few ? "clean" : "suspect"
            }
            const checked = yield* hashQueue.run(ip, lane, Effect.promise(async () => {
              const stored = person?.passwordHash ?? (await decoyHash())
              const matches = await verifyPassword(password, stored)
              // A hash stored with older parameters is replaced while its password is at hand.
              const upgraded = matches && needsRehash(stored) ? await hashPassword(password) : undefined
              return { matches, upgraded }
            }))
            if (Option.isNone(checked)) return yield* refuse({ _tag: "Busy", retryAfterSeconds: 1 })
            if (person === undefined || !checked.value.matches) {
              if (trusted) {
                yield* limiter.take(deviceBucket, FAILED_SIGN_INS_PER_DEVICE, window)
              } else {
                yield* limiter.take(addressBucket, FAILED_SIGN_INS_PER_ADDRESS, window)
                yield* limiter.take(accountBucket, FAILED_SIGN_INS_PER_ACCOUNT, window)
              }
              return yield* refuse({ _tag: "BadCredentials" })
            }
            const upgraded = checked.value.upgraded
            if (upgraded !== undefined) {
              yield* sql`UPDATE persons SET password_hash = ${upgraded} WHERE id = ${person.id}`.pipe(Effect.orDie)
            }
            const token = newSecret("sc_sess_")
            const csrfToken = newSecret("sc_csrf_")
            yield* sql`
              INSERT INTO oauth_sessions (session_hash, person_id, csrf_token, expires_at)
              VALUES (${hashSecret(token)}, ${person.id}, ${csrfToken}, now() + make_interval(hours => ${SESSION_TTL_HOURS}))`
              .pipe(Effect.orDie)
            return {
              token,
              device: issueDeviceCookie(deviceKey, person.id),
              session: { personId: person.id, email: person.email, csrfToken }
            }
          }),
        find: (token) => orUndefined(findSession(hashSecret(token))),
        end: (token) => sql`DELETE FROM oauth_sessions WHERE session_hash = ${hashSecret(token)}`.pipe(Effect.orDie, Effect.asVoid),
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
