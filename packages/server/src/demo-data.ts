import { type Environment, SCOPES } from "@signcraft/core"
import { Credentials, Identity, randomBase62 } from "@signcraft/core/internal"
import { Context, Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError } from "effect/sql/SqlError"

/** The demo company, store, person and key created on an empty development database. */
export interface DemoData {
  readonly companyId: number
  readonly storeId: number
  /** The demo person's sign-in, or nothing when that email was already taken. */
  readonly person: { readonly email: string; readonly password: string } | undefined
  /** The test-mode API key with every scope; shown only this once. */
  readonly apiKey: string
}

/** The demo person's email address. */
export const DEMO_EMAIL = "demo@signcraft.test"

/** What start-up seeded: the demo data, or nothing when none was created. */
export class DemoSeed extends Context.Service<DemoSeed, Option.Option<DemoData>>()("signcraft/server/DemoSeed") {}

/** Whether an environment may get demo data: development only, never a deployment's real data. */
export const seedsDemoData = (environment: Environment): boolean => environment === "development"

const createDemoSet = Effect.gen(function*() {
  const identity = yield* Identity
  const credentials = yield* Credentials
  const company = yield* identity.createCompany({ name: "Demo Company" })
  const store = yield* identity
    .createStore({ companyId: company.id, name: "Demo Store", platform: "custom", currency: "USD" })
    .pipe(Effect.orDie)
  const password = randomBase62(20)
  // The email can only be taken when every company was deleted but the persons were
  // kept; the rest of the demo set is still worth creating then.
  const person = yield* identity
    .createPerson({ companyId: company.id, email: DEMO_EMAIL, password, name: "Demo Person" })
    .pipe(
      Effect.as({ email: DEMO_EMAIL, password }),
      Effect.catchTag("ValidationFailed", () => Effect.succeed(undefined))
    )
  const key = yield* credentials.issue(store.id, "test", { _tag: "Scoped", scopes: SCOPES })
  return { companyId: company.id, storeId: store.id, person, apiKey: key.key } satisfies DemoData
})

/**
 * Creates the demo set when the database has no company yet. The check and the
 * inserts share one transaction holding an exclusive lock on `companies`, so two
 * processes starting together on one database create one demo set, not two.
 */
export const seedDemoData: Effect.Effect<
  Option.Option<DemoData>,
  SqlError,
  SqlClient.SqlClient | Identity | Credentials
> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(Effect.gen(function*() {
    yield* sql`LOCK TABLE companies IN EXCLUSIVE MODE`
    const existing = yield* sql`SELECT 1 FROM companies LIMIT 1`
    if (existing.length > 0) return Option.none()
    return Option.some(yield* createDemoSet)
  }))
})

/** Provides {@link DemoSeed}: seeds demo data in development, does nothing elsewhere. */
export const layerDemoSeed = (environment: Environment): Layer.Layer<DemoSeed, SqlError, SqlClient.SqlClient> =>
  Layer.effect(
    DemoSeed,
    seedsDemoData(environment) ? seedDemoData : Effect.succeed(Option.none())
  ).pipe(Layer.provide(Layer.mergeAll(Identity.layer, Credentials.layer)))
