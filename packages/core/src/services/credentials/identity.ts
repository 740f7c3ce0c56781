import { Context, Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { hashPassword } from "../../domain/credentials/password.js"
import { NotFound, ValidationFailed } from "../../domain/errors.js"
import { decodeFirstRow, decodeSingleRow, RowId } from "../../storage/rows.js"
import type { Store } from "../../domain/credentials/principal.js"
import { snakeStruct } from "../../storage/table.js"

export type { Store } from "../../domain/credentials/principal.js"

/** A merchant organisation. */
export interface Company {
  readonly id: number
  readonly name: string
}

/** A merchant user who can sign in and approve connector grants. */
export interface Person {
  readonly id: number
  readonly email: string
  readonly name: string | null
}

/** Companies, stores, persons and memberships. */
const CompanyRow = Schema.Struct({ id: RowId, name: Schema.String })
const StoreRow = snakeStruct({
  id: RowId,
  companyId: RowId,
  name: Schema.String,
  platform: Schema.String,
  currency: Schema.String
})
const PersonRow = Schema.Struct({ id: RowId, email: Schema.String, name: Schema.NullOr(Schema.String) })

export class Identity extends Context.Service<Identity, {
  readonly createCompany: (input: { readonly name: string }) => Effect.Effect<Company>
  readonly createStore: (input: Omit<Store, "id">) => Effect.Effect<Store, ValidationFailed>
  readonly findStore: (id: number) => Effect.Effect<Store, NotFound>
  readonly createPerson: (input: {
    readonly companyId: number
    readonly email: string
    readonly password: string
    readonly name: string | null
  }) => Effect.Effect<Person, ValidationFailed>
  readonly removeMember: (companyId: number, personId: number) => Effect.Effect<void, NotFound>
  /** Whether a person belongs to a company right now. */
  readonly isMember: (companyId: number, personId: number) => Effect.Effect<boolean>
}>()("signcraft/Identity") {
  static readonly layer = Layer.effect(
    Identity,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const unknownCompany = new ValidationFailed({
        errors: [{ pointer: "/company_id", code: "unknown_reference", detail: "No company has this id." }]
      })
      const companyExists = (id: number) =>
        Effect.map(sql`SELECT id FROM companies WHERE id = ${id}`, (rows) => rows.length > 0)

      return Identity.of({
        createCompany: ({ name }) =>
          sql`INSERT INTO companies ${sql.insert({ name })} RETURNING id, name`.pipe(
            Effect.orDie,
            Effect.flatMap(decodeSingleRow(CompanyRow))
          ),
        createStore: Effect.fn("Identity.createStore")(function*(input) {
            if (!(yield* companyExists(input.companyId))) return yield* unknownCompany
            const rows = yield* sql`
              INSERT INTO stores ${sql.insert({
                company_id: input.companyId,
                name: input.name,
                platform: input.platform,
                currency: input.currency
              })}
              RETURNING id, company_id, name, platform, currency`
            return yield* decodeSingleRow(StoreRow)(rows)
          }, Effect.catchTag("SqlError", Effect.die)),
        findStore: (id) =>
          sql`SELECT id, company_id, name, platform, currency FROM stores WHERE id = ${id}`.pipe(
            Effect.orDie,
            Effect.flatMap(decodeFirstRow(StoreRow)),
            Effect.flatMap(Option.match({
              onNone: () => Effect.fail(new NotFound({ resource: "store" })),
              onSome: Effect.succeed
            }))
          ),
        createPerson: Effect.fn("Identity.createPerson")(function*(input) {
            if (!(yield* companyExists(input.companyId))) return yield* unknownCompany
            const taken = yield* sql`SELECT 1 FROM persons WHERE lower(email) = lower(${input.email})`
            if (taken.length > 0) {
              return yield* new ValidationFailed({
                errors: [{ pointer: "/email", code: "already_taken", detail: "A person with this email exists." }]
              })
            }
            const passwordHash = yield* Effect.promise(() => hashPassword(input.password))
            return yield* sql.withTransaction(Effect.gen(function*() {
              const rows = yield* sql`
                INSERT INTO persons ${sql.insert({ email: input.email, name: input.name, password_hash: passwordHash })}
                RETURNING id, email, name`
              const person = yield* decodeSingleRow(PersonRow)(rows)
              yield* sql`INSERT INTO memberships ${sql.insert({ company_id: input.companyId, person_id: person.id })}`
              return person
            }))
          }, Effect.catchTag("SqlError", Effect.die)),
        removeMember: (companyId, personId) =>
          sql`DELETE FROM memberships WHERE company_id = ${companyId} AND person_id = ${personId} RETURNING person_id`
            .pipe(
              Effect.orDie,
              Effect.flatMap((rows) =>
                rows.length === 0 ? Effect.fail(new NotFound({ resource: "member" })) : Effect.void
              )
            ),
        isMember: (companyId, personId) =>
          sql`SELECT 1 FROM memberships WHERE company_id = ${companyId} AND person_id = ${personId}`.pipe(
            Effect.map((rows) => rows.length > 0),
            Effect.orDie
          )
      })
    })
  )
}
