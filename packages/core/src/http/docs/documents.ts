import { Schema } from "effect"
import { HttpApi, OpenApi } from "effect/http-api"
import { OperatorApi } from "../api/operator.js"
import { OperatorCommerceApi } from "../api/operator-commerce.js"
import { documentedPayloads } from "../api/parsed-json.js"
import { StorefrontDesignsApi } from "../api/storefront-designs.js"
import { StorefrontFormsApi } from "../api/storefront-forms.js"
import { SystemApi } from "../api/system.js"
import { V3AnalyticsApi } from "../api/v3-analytics.js"
import { V3CommerceApi } from "../api/v3-commerce.js"
import { V3CustomisersApi } from "../api/v3-customisers.js"
import { V3QuotesApi } from "../api/v3-quotes.js"
import { V3StoresApi } from "../api/v3-stores.js"
import { V3WebhooksApi } from "../api/v3-webhooks.js"

type Spec = Record<string, unknown> & { readonly components?: { readonly schemas?: Record<string, unknown> } }

// Bodies checked by a domain validator are opaque JSON to HttpApi; each document shows the schema
// that validator enforces instead, undeclared members refused included.
const showDocumentedBodies = (bodies: ReadonlyMap<string, Schema.Top>) => {
  const shown = [...bodies].map(([name, schema]) =>
    [name, Schema.toJsonSchemaDocument(schema, { onExcessProperty: "error" }).schema] as const
  )
  return (spec: Spec): Spec => {
    const schemas: Record<string, unknown> = { ...spec.components?.schemas }
    for (const [name, schema] of shown) if (name in schemas) schemas[name] = schema
    return { ...spec, components: { ...spec.components, schemas } }
  }
}

const publicApi = HttpApi.make("signcraft-public")
  .add(SystemApi)
  .add(V3StoresApi)
  .add(V3CustomisersApi)
  .add(V3CommerceApi)
  .add(V3AnalyticsApi)
  .add(V3QuotesApi)
  .add(V3WebhooksApi)
  .add(StorefrontFormsApi)
  .add(StorefrontDesignsApi)
  .annotateMerge(OpenApi.annotations({
    title: "signcraft API",
    version: "3",
    description: "The v3 API for integrators (Bearer API keys) and the storefront API the customiser calls " +
      "from shoppers' browsers (no credential). Every error is an RFC 9457 problem document; branch on `code`."
  }))

/** What the public reference documents: v3 and the storefront API. */
export const PublicDocsApi = publicApi.annotate(OpenApi.Transform, showDocumentedBodies(documentedPayloads(publicApi)))

const operatorApi = HttpApi.make("signcraft-operator")
  .add(OperatorApi)
  .add(OperatorCommerceApi)
  .annotateMerge(OpenApi.annotations({
    title: "signcraft operator API",
    version: "1",
    description: "Stands in for the merchant dashboard: companies, people, Stores, keys, customisers and " +
      "integrations. Served only when OPERATOR_TOKEN is set; send it as a Bearer token."
  }))

/** What the operator reference documents: the operator API. */
export const OperatorDocsApi = operatorApi.annotate(
  OpenApi.Transform,
  showDocumentedBodies(documentedPayloads(operatorApi))
)

/** The OpenAPI 3.1 document of the public API, served at `baseUrl`. */
export const openApiDocument = (baseUrl: string) => ({ ...OpenApi.fromApi(PublicDocsApi), servers: [{ url: baseUrl }] })

/** The OpenAPI 3.1 document of the operator API, served at `baseUrl`. */
export const operatorOpenApiDocument = (baseUrl: string) => ({
  ...OpenApi.fromApi(OperatorDocsApi),
  servers: [{ url: baseUrl }]
})
