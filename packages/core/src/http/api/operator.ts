import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { PricingModel, ProductFamily, SelectionMode } from "../../domain/enums.js"
import { CustomiserV3 } from "../../domain/pricing/customiser.js"
import { SCOPES } from "../../domain/credentials/scopes.js"
import { AnswerCarriesSecret } from "../annotations.js"
import { OperatorAuth, RequestFailures } from "../middleware/definitions.js"
import { refuseUnknownMembers } from "./parse-options.js"
import { parsedJson } from "./parsed-json.js"
import { ResourceIdParam } from "../resource-id.js"
import { PricingDocumentV3 } from "../../domain/pricing/schema-v3.js"

const NonEmpty = Schema.String.check(Schema.isMinLength(1))
const Id = Schema.Int.check(Schema.isGreaterThan(0))

/** A company (operator view). */
export const CompanyView = Schema.Struct({ id: Schema.Int, name: Schema.String }).annotate({ identifier: "Company" })

/** A store (operator view). */
export const StoreView = Schema.Struct({
  id: Schema.Int,
  company_id: Schema.Int,
  name: Schema.String,
  platform: Schema.String,
  currency: Schema.String
}).annotate({ identifier: "OperatorStore" })

/** A person (operator view). */
export const PersonView = Schema.Struct({
  id: Schema.Int,
  email: Schema.String,
  name: Schema.NullOr(Schema.String)
}).annotate({ identifier: "Person" })

/** An API key as issued: the secret `key` is shown here only. */
export const ApiKeyView = Schema.Struct({
  id: Schema.Int,
  store_id: Schema.Int,
  key: Schema.String,
  mode: Schema.Literals(["live", "test"]),
  scopes: Schema.Array(Schema.String),
  legacy_wildcard: Schema.Boolean,
  expires_at: Schema.NullOr(Schema.String)
}).annotate({ identifier: "IssuedApiKey" })

/** Calls of one deprecated operation by one API key: what removal decisions rest on. */
export const DeprecatedUsageView = Schema.Struct({
  api_key_id: Schema.Int,
  operation: Schema.String,
  count: Schema.Int,
  last_seen_at: Schema.String
}).annotate({ identifier: "DeprecatedUsage" })
/** A live connector grant (a connection) of a Store. */
export const ConnectionView = Schema.Struct({
  id: Schema.Int,
  client_id: Schema.String,
  client_name: Schema.NullOr(Schema.String),
  person_id: Schema.Int,
  scopes: Schema.Array(Schema.String),
  created_at: Schema.String
}).annotate({ identifier: "Connection" })

/** Platforms are an open set of lowercase slugs (`custom`, `shopify`, `woocommerce`, …). */
export const Platform = Schema.String.check(
  Schema.isPattern(/^[a-z][a-z0-9_-]{0,39}$/, { expected: "a lowercase platform slug such as custom or shopify" })
)

/** An uppercase ISO 4217 code. */
export const CurrencyCode = Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { expected: "an uppercase ISO 4217 code" }))

/** The operator API (stands in for the merchant dashboard). */
export class OperatorApi extends HttpApiGroup.make("operator")
  .add(
    HttpApiEndpoint.post("createCompany", "/companies", {
      payload: Schema.Struct({ name: NonEmpty }),
      success: CompanyView.pipe(HttpApiSchema.status(201))
    }),
    HttpApiEndpoint.post("createStore", "/stores", {
      payload: Schema.Struct({
        company_id: Id,
        name: NonEmpty,
        platform: Schema.optionalKey(Platform),
        currency: Schema.optionalKey(CurrencyCode)
      }),
      success: StoreView.pipe(HttpApiSchema.status(201))
    }),
    HttpApiEndpoint.post("createPerson", "/persons", {
      payload: Schema.Struct({
        company_id: Id,
        email: Schema.String.check(
          Schema.isPattern(/^[^\s@]+@[^\s@]+$/, { expected: "an email address" }),
          // RFC 5321 §4.5.3.1: no longer path exists; it also keeps the email indexable.
          Schema.isMaxLength(254, { expected: "at most 254 characters" })
        ),
        password: Schema.String.check(Schema.isMinLength(8)),
        name: Schema.optionalKey(Schema.NullOr(Schema.String))
      }),
      success: PersonView.pipe(HttpApiSchema.status(201))
    }),
    HttpApiEndpoint.delete("removeMember", "/companies/:company_id/members/:person_id", {
      params: { company_id: ResourceIdParam("company"), person_id: ResourceIdParam("person") },
      success: HttpApiSchema.NoContent
    }),
    HttpApiEndpoint.post("createApiKey", "/stores/:store_id/api-keys", {
      params: { store_id: ResourceIdParam("store") },
      payload: Schema.Struct({
        mode: Schema.Literals(["live", "test"]),
        scopes: Schema.optionalKey(Schema.Array(Schema.Literals(SCOPES))),
        legacy_wildcard: Schema.optionalKey(Schema.Boolean),
        // An ISO 8601 instant; the key answers 401 from then on.
        expires_at: Schema.optionalKey(
          Schema.String.check(Schema.makeFilter((text: string) => !Number.isNaN(Date.parse(text)), { expected: "an ISO 8601 timestamp" }))
        )
      }),
      success: ApiKeyView.pipe(HttpApiSchema.status(201))
    }).annotate(AnswerCarriesSecret, true),
    HttpApiEndpoint.delete("revokeApiKey", "/api-keys/:key_id", {
      params: { key_id: ResourceIdParam("API key") },
      success: HttpApiSchema.NoContent
    }),
    HttpApiEndpoint.get("deprecatedUsage", "/stores/:store_id/deprecated-usage", {
      params: { store_id: ResourceIdParam("store") },
      success: Schema.Struct({ data: Schema.Array(DeprecatedUsageView) })
    }),
    HttpApiEndpoint.post("createCustomiser", "/stores/:store_id/customisers", {
      params: { store_id: ResourceIdParam("store") },
      payload: Schema.Struct({
        name: NonEmpty,
        product_family: Schema.Literals(ProductFamily.writableValues),
        selection_mode: Schema.Literals(SelectionMode.writableValues),
        // The dashboard may still create retired-model customisers (stored data has them); their
        // pricing then refuses every write, as the public API must.
        pricing_model: Schema.Literals(PricingModel.values),
        active: Schema.optionalKey(Schema.Boolean),
        // A v3 pricing document, checked by the pricing validator once the customiser exists.
        pricing: Schema.optionalKey(parsedJson("OperatorPricingDocument", PricingDocumentV3))
      }),
      success: CustomiserV3.pipe(HttpApiSchema.status(201))
    }),
    HttpApiEndpoint.get("listConnections", "/stores/:store_id/connections", {
      params: { store_id: ResourceIdParam("store") },
      success: Schema.Struct({ data: Schema.Array(ConnectionView) })
    }),
    HttpApiEndpoint.delete("revokeConnection", "/connections/:connection_id", {
      params: { connection_id: ResourceIdParam("connection") },
      success: HttpApiSchema.NoContent
    })
  )
  .middleware(RequestFailures)
  .middleware(OperatorAuth)
  .prefix("/operator/v1")
  .annotate(...refuseUnknownMembers)
  .annotate(OpenApi.Title, "Operator")
{}
