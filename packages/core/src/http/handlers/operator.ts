import { connectionView, deprecatedUsageView, operatorStoreView } from "../../presenters/operator.js"
import { Clock, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { NotFound, ValidationFailed } from "../../domain/errors.js"
import { formatTimestampV3 } from "../../domain/timestamp.js"
import type { Grant } from "../../domain/credentials/scopes.js"
import { Credentials } from "../../services/credentials/credentials.js"
import { Customisers } from "../../services/pricing/customisers.js"
import { DeprecatedUsage } from "../../services/requests/deprecated-usage.js"
import { Identity } from "../../services/credentials/identity.js"
import { customiserV3Of } from "../../domain/pricing/customiser.js"
import { decidePricingPutV3 } from "../../domain/pricing/writes.js"
import { pricingDecision } from "../../services/pricing/decisions.js"
import { OAuthGrants } from "../../services/oauth/grants.js"
import { SigncraftApi } from "../api/index.js"


/** The operator API: companies, stores, persons, members, API keys, customisers and connector connections. */
export const OperatorHandlers = HttpApiBuilder.group(SigncraftApi, "operator", (handlers) =>
  Effect.gen(function*() {
    const identity = yield* Identity
    const credentials = yield* Credentials
    const customisers = yield* Customisers
    const usage = yield* DeprecatedUsage
    const grants = yield* OAuthGrants
    return handlers
      .handle("createCompany", ({ payload }) => identity.createCompany(payload))
      .handle("createStore", ({ payload }) =>
        identity.createStore({
          companyId: payload.company_id,
          name: payload.name,
          platform: payload.platform ?? "custom",
          currency: payload.currency ?? "USD"
        }).pipe(Effect.map(operatorStoreView)))
      .handle("createPerson", ({ payload }) =>
        identity.createPerson({
          companyId: payload.company_id,
          email: payload.email,
          password: payload.password,
          name: payload.name ?? null
        }))
      .handle("removeMember", Effect.fn("operator.removeMember")(function*({ params }) {
          // Revoked first: should the removal then fail, the grants are gone anyway and a retry
          // finds nothing left to revoke.
          if (!(yield* identity.isMember(params.company_id, params.person_id))) {
            return yield* new NotFound({ resource: "member" })
          }
          yield* grants.revokeMemberGrants(params.company_id, params.person_id)
          return yield* identity.removeMember(params.company_id, params.person_id)
        }))
      .handle("createApiKey", Effect.fn("operator.createApiKey")(function*({ params, payload }) {
          const wildcard = payload.legacy_wildcard === true
          if (wildcard === (payload.scopes !== undefined)) {
            return yield* new ValidationFailed({
              errors: [{
                pointer: wildcard ? "/scopes" : "",
                code: wildcard ? "conflicting_fields" : "required",
                detail: "Send either `scopes` or `legacy_wildcard: true`, not both and not neither."
              }]
            })
          }
          // A key that expires as it is issued could never be used: refuse it rather than mint it dead.
          if (payload.expires_at !== undefined && Date.parse(payload.expires_at) <= (yield* Clock.currentTimeMillis)) {
            return yield* new ValidationFailed({
              errors: [{ pointer: "/expires_at", code: "out_of_range", detail: "`expires_at` must be in the future." }]
            })
          }
          yield* identity.findStore(params.store_id)
          const grant: Grant = wildcard ? { _tag: "LegacyWildcard" } : { _tag: "Scoped", scopes: payload.scopes ?? [] }
          const issued = yield* credentials.issue(
            params.store_id,
            payload.mode,
            grant,
            payload.expires_at === undefined ? {} : { expiresAt: new Date(payload.expires_at) }
          )
          return {
            id: issued.id,
            store_id: issued.storeId,
            key: issued.key,
            mode: issued.mode,
            scopes: grant._tag === "Scoped" ? [...new Set(grant.scopes)] : [],
            legacy_wildcard: wildcard,
            expires_at: issued.expiresAt === null ? null : formatTimestampV3(issued.expiresAt)
          }
        }))
      .handle("revokeApiKey", ({ params }) => credentials.revoke(params.key_id))
      .handle("deprecatedUsage", Effect.fn("operator.deprecatedUsage")(function*({ params }) {
          yield* identity.findStore(params.store_id)
          const records = yield* usage.forStore(params.store_id)
          return {
            data: records.map(deprecatedUsageView)
          }
        }))
      .handle("createCustomiser", Effect.fn("operator.createCustomiser")(function*({ params, payload }) {
          yield* identity.findStore(params.store_id)
          const { pricing, ...fields } = payload
          const created = yield* customisers.create(
            params.store_id,
            {
              name: fields.name,
              pricingModel: fields.pricing_model,
              productFamily: fields.product_family,
              selectionMode: fields.selection_mode,
              active: fields.active ?? true
            },
            pricing === undefined
              ? undefined
              : (stored) =>
                  pricingDecision(decidePricingPutV3, pricing)(stored).pipe(
                    // Faults point into the operator body, where the document sits under `pricing`.
                    Effect.mapError((failure) =>
                      new ValidationFailed({
                        ...(failure.code === undefined ? {} : { code: failure.code }),
                        errors: failure.errors.map((error) =>
                          error.pointer === undefined ? error : { ...error, pointer: `/pricing${error.pointer}` }
                        )
                      })
                    )
                  )
          )
          return customiserV3Of(created)
        }))
      .handle("listConnections", Effect.fn("operator.listConnections")(function*({ params }) {
          yield* identity.findStore(params.store_id)
          const connections = yield* grants.listConnections(params.store_id)
          return { data: connections.map(connectionView) }
        }))
      .handle("revokeConnection", ({ params }) => grants.revokeConnection(params.connection_id))
  }))
