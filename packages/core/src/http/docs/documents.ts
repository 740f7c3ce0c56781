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
import { V3EventsApi } from "../api/v3-events.js"
import { V3WebhooksApi } from "../api/v3-webhooks.js"
import type { SwitchablePart } from "../../domain/deployment/switches.js"
import { makeSwitchedOff } from "../switches.js"
import { foldRepeatedComponents } from "./component-names.js"
import { placeExample } from "./example-placement.js"
import { introduction } from "./introduction.js"
import { type OperationFacts, operationFacts } from "./operation-facts.js"
import { OPERATION_EXAMPLES, type OperationExample } from "./operation-examples.js"
import { type OperationObject, shapeOperation } from "./operation-shape.js"
import { tidyJsonSchemas } from "./json-schema-tidy.js"

type Spec = Record<string, unknown> & {
  readonly components?: { readonly schemas?: Record<string, unknown> }
  readonly paths?: Record<string, Record<string, unknown>>
  readonly tags?: ReadonlyArray<{ readonly name: string }>
}

// The tags the operations of `paths` carry.
const tagsUsed = (paths: Record<string, Record<string, unknown>>): ReadonlySet<string> => {
  const used = new Set<string>()
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      const tags = typeof operation === "object" && operation !== null && "tags" in operation ? operation.tags : undefined
      if (Array.isArray(tags)) for (const tag of tags) if (typeof tag === "string") used.add(tag)
    }
  }
  return used
}

// A deployment's document: its servers (the base URL, path included), without the paths of the
// parts it switched off, nor the tags only they used.
const forDeployment = (baseUrl: string, disable: ReadonlyArray<SwitchablePart>) => {
  const switchedOff = makeSwitchedOff(disable)
  return (spec: Spec): Spec => {
    const paths = Object.fromEntries(Object.entries(spec.paths ?? {}).filter(([path]) => !switchedOff(path)))
    const used = tagsUsed(paths)
    const tags = spec.tags === undefined ? {} : { tags: spec.tags.filter((tag) => used.has(tag.name)) }
    return { ...spec, ...tags, paths, servers: [{ url: baseUrl }] }
  }
}

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

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "options", "head", "patch", "trace"])

// Every operation completed from its endpoint's facts (scopes, Idempotency-Key, integer ids) and
// shown with its example, then every schema tidied for generators and repeated names folded.
const forGenerators = (
  facts: ReadonlyMap<string, OperationFacts>,
  examples: Readonly<Record<string, OperationExample>>,
  baseUrl: string
) =>
(spec: Spec): Spec => {
  const paths = Object.fromEntries(Object.entries(spec.paths ?? {}).map(([path, item]) => [
    path,
    Object.fromEntries(Object.entries(item).map(([method, value]) => {
      if (!HTTP_METHODS.has(method) || typeof value !== "object" || value === null) return [method, value]
      const operation = value as OperationObject
      const id = operation.operationId ?? ""
      return [method, placeExample(shapeOperation(operation, facts.get(id)), examples[id], baseUrl)]
    }))
  ]))
  return foldRepeatedComponents(tidyJsonSchemas({ ...spec, paths }) as Spec)
}

const publicApi = HttpApi.make("signcraft-public")
  .add(SystemApi)
  .add(V3StoresApi)
  .add(V3CustomisersApi)
  .add(V3CommerceApi)
  .add(V3AnalyticsApi)
  .add(V3QuotesApi)
  .add(V3WebhooksApi)
  .add(V3EventsApi)
  .add(StorefrontFormsApi)
  .add(StorefrontDesignsApi)
  .annotateMerge(OpenApi.annotations({
    title: "signcraft API",
    version: "3",
    description: introduction(""),
    license: { name: "MIT", url: "https://opensource.org/license/mit" }
  }))

const showPublicBodies = showDocumentedBodies(documentedPayloads(publicApi))
const publicFacts = operationFacts(publicApi)

/** What the public reference documents for a deployment: v3 and the storefront API, less the parts switched off. */
export const publicDocsApi = (baseUrl: string, disable: ReadonlyArray<SwitchablePart>) => {
  const deployment = forDeployment(baseUrl, disable)
  const generators = forGenerators(publicFacts, OPERATION_EXAMPLES, baseUrl)
  return publicApi.annotate(OpenApi.Transform, (spec: Spec) => {
    const shaped = generators(deployment(showPublicBodies(spec)))
    const info = typeof shaped.info === "object" && shaped.info !== null ? shaped.info : {}
    return { ...shaped, info: { ...info, description: introduction(baseUrl) } }
  })
}

const operatorApi = HttpApi.make("signcraft-operator")
  .add(OperatorApi)
  .add(OperatorCommerceApi)
  .annotateMerge(OpenApi.annotations({
    title: "signcraft operator API",
    version: "1",
    description: "Stands in for the merchant dashboard: companies, people, Stores, keys, customisers and " +
      "integrations. Served only when OPERATOR_TOKEN is set; send it as a Bearer token."
  }))

const showOperatorBodies = showDocumentedBodies(documentedPayloads(operatorApi))
const operatorFacts = operationFacts(operatorApi)

/** What the operator reference documents: the operator API, served at `baseUrl`. */
export const operatorDocsApi = (baseUrl: string) => {
  const deployment = forDeployment(baseUrl, [])
  const generators = forGenerators(operatorFacts, {}, baseUrl)
  return operatorApi.annotate(OpenApi.Transform, (spec: Spec) => generators(deployment(showOperatorBodies(spec))))
}

/** The OpenAPI 3.1 document of the public API, served at `baseUrl`, less the parts switched off (`disable`). */
export const openApiDocument = (baseUrl: string, disable: ReadonlyArray<SwitchablePart> = []) =>
  OpenApi.fromApi(publicDocsApi(baseUrl, disable))

/** The OpenAPI 3.1 document of the operator API, served at `baseUrl`. */
export const operatorOpenApiDocument = (baseUrl: string) => OpenApi.fromApi(operatorDocsApi(baseUrl))
