import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createConfig, lintFromString } from "@redocly/openapi-core"
import { Ajv2020 } from "ajv/dist/2020.js"
import openapiTS, { astToString } from "openapi-typescript"
import ts from "typescript"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OPERATION_EXAMPLES } from "../../src/http/docs/operation-examples.js"
import { openApiDocument, operatorOpenApiDocument } from "../../src/http/docs/documents.js"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"
import { type ExampleAnswer, runExamples } from "../support/example-run.js"

// What a code generator, a linter and a newcomer copying an example each need of the document,
// checked over every operation it has, so an operation added later is held to the same rules.

type Json = Record<string, unknown>
type Media = Record<string, { readonly schema?: Json; readonly example?: unknown }>
type Parameter = { readonly name: string; readonly in: string; readonly required?: boolean; readonly schema?: Json; readonly example?: unknown }
type Operation = {
  readonly operationId: string
  readonly summary?: string
  readonly parameters?: ReadonlyArray<Parameter>
  readonly security?: ReadonlyArray<Record<string, ReadonlyArray<string>>>
  readonly requestBody?: { readonly content: Media }
  readonly responses: Record<string, { readonly content?: Media }>
}
type Document = {
  readonly info: { readonly description: string }
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, Json>; readonly securitySchemes: Record<string, Json> }
}

const BASE = "http://127.0.0.1:8080"
const doc = openApiDocument(BASE) as unknown as Document

const operations = (document: Document = doc) =>
  Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, id: `${method} ${path}`, operation }))
  )

const successOf = (operation: Operation): string | undefined => Object.keys(operation.responses).find((status) => status.startsWith("2"))

const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false })
// The schema with the document's components beside it, so its `#/components/...` references resolve.
const validatorOf = (schema: Json) => ajv.compile({ ...schema, components: doc.components })

const lintErrors = async (document: unknown) => {
  const config = await createConfig({ extends: ["recommended"] })
  const problems = await lintFromString({ source: JSON.stringify(document), absoluteRef: "/openapi.json", config })
  return problems.filter((problem) => problem.severity === "error").map((problem) => `${problem.ruleId}: ${problem.message}`)
}

describe("the public OpenAPI document, for generators", () => {
  it("passes Redocly's recommended lint with no error", async () => {
    expect(await lintErrors(doc)).toEqual([])
  })

  it("keeps the operator's document free of every lint error but its missing summaries", async () => {
    const errors = await lintErrors(operatorOpenApiDocument(BASE))
    expect(errors.filter((error) => !error.startsWith("operation-summary:"))).toEqual([])
  })

  it("declares the API key as an HTTP bearer token (lowercase, as OpenAPI tools match it)", () => {
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" })
  })

  it("has no number that may be a string: no NaN or Infinity alternative anywhere", () => {
    expect(JSON.stringify(doc)).not.toMatch(/"(NaN|Infinity|-Infinity)"/)
  })

  it("shows closed sets as enums (letter_pricing_method)", () => {
    const text = JSON.stringify(doc.components.schemas.PricingDocumentWrite)
    expect(text).toContain('"letter_pricing_method":{"anyOf":[{"type":"string","enum":["material_length","fixed_letter"]},{"type":"null"}]}')
  })

  it("types every path id as an integer, and an event id (evt_…) as a string", () => {
    const ids = operations().flatMap(({ id, operation }) =>
      (operation.parameters ?? []).filter((parameter) => parameter.in === "path").map((parameter) => ({ id, parameter }))
    )
    expect(ids.length).toBeGreaterThan(10)
    // An event's id is the x-webhook-id of its deliveries (`evt_` and digits): a string.
    for (const { id, parameter } of ids) {
      if (parameter.name === "event_id") expect(parameter.schema?.type, `${id} ${parameter.name}`).toBe("string")
      else expect(parameter.schema?.type, `${id} ${parameter.name}`).toBe("integer")
    }
  })

  it("gives every operation a summary, and every key-authenticated one the scopes it needs", () => {
    for (const { id, path, operation } of operations()) {
      expect(operation.summary, id).toBeTruthy()
      if (!path.startsWith("/api/v3/")) continue
      expect(operation.security?.length, id).toBeGreaterThan(0)
      for (const requirement of operation.security ?? []) expect(requirement.apiKey?.length, id).toBe(1)
    }
    expect(doc.paths["/api/v3/stores/me"]?.get?.security).toEqual([{ apiKey: ["store:read"] }])
    expect(doc.paths["/api/v3/customisers/{customiser_id}/pricing/validate"]?.post?.security).toEqual([
      { apiKey: ["pricing:read"] },
      { apiKey: ["pricing:write"] }
    ])
  })

  it("declares Idempotency-Key where the server requires it, and on the writes that take it", () => {
    const header = (operation: Operation | undefined) =>
      operation?.parameters?.find((parameter) => parameter.in === "header" && parameter.name === "Idempotency-Key")
    const pricing = doc.paths["/api/v3/customisers/{customiser_id}/pricing"]
    expect(header(pricing?.put)?.required).toBe(true)
    expect(header(pricing?.patch)?.required).toBe(true)
    expect(header(doc.paths["/api/v3/orders"]?.post)?.required).toBe(false)
    expect(header(doc.paths["/api/v3/customisers/{customiser_id}/products"]?.post)?.required).toBe(false)
    // One declaration, under its canonical name: never a second, lowercase copy.
    for (const { id, operation } of operations()) {
      const named = (operation.parameters ?? []).filter((parameter) => parameter.name.toLowerCase() === "idempotency-key")
      expect(named.length, id).toBeLessThanOrEqual(1)
    }
  })

  it("names every schema itself: no generated suffix", () => {
    expect(Object.keys(doc.components.schemas).filter((name) => /_\d+$/.test(name))).toEqual([])
  })

  it("lists no failure on /healthz but the per-address quota", () => {
    expect(Object.keys(doc.paths["/healthz"]?.get?.responses ?? {})).toEqual(["200", "429"])
  })

  it("introduces authentication, paging, idempotency, errors, rate limits and versioning", () => {
    for (const heading of ["Authentication", "Paging", "Idempotency", "Errors", "Rate limits", "Versioning"]) {
      expect(doc.info.description).toContain(`## ${heading}`)
    }
  })

  it("shows an example on every operation: its parameters, its body and its success answer, each valid against its schema", () => {
    for (const { id, operation } of operations()) {
      expect(OPERATION_EXAMPLES[operation.operationId], `${id} has no example`).toBeDefined()
      for (const parameter of operation.parameters ?? []) {
        if (parameter.required !== true) continue
        expect(parameter.example, `${id} ${parameter.name}`).toBeDefined()
        expect(validatorOf(parameter.schema ?? {})(parameter.example), `${id} ${parameter.name}`).toBe(true)
      }
      for (const [type, media] of Object.entries(operation.requestBody?.content ?? {})) {
        expect(media.example, `${id} ${type}`).toBeDefined()
        const validate = validatorOf(media.schema ?? {})
        expect(validate(media.example), `${id} request ${JSON.stringify(validate.errors)}`).toBe(true)
      }
      const status = successOf(operation) ?? ""
      const [media] = Object.values(operation.responses[status]?.content ?? {})
      expect(media?.example, `${id} ${status}`).toBeDefined()
      const validate = validatorOf(media?.schema ?? {})
      expect(validate(media?.example), `${id} response ${JSON.stringify(validate.errors)}`).toBe(true)
    }
  })

  it("generates TypeScript types with openapi-typescript that a small client compiles against", async () => {
    const types = astToString(await openapiTS(JSON.parse(JSON.stringify(doc))))
    const dir = mkdtempSync(join(tmpdir(), "signcraft-openapi-ts-"))
    try {
      // A .ts file, not .d.ts: the generated types are checked too, while the libraries are skipped.
      writeFileSync(join(dir, "api.ts"), types)
      writeFileSync(
        join(dir, "client.ts"),
        [
          `import type { components, paths } from "./api"`,
          `type Store = paths["/api/v3/stores/me"]["get"]["responses"][200]["content"]["application/json"]["data"]`,
          `export const scopesOf = (store: Store): ReadonlyArray<string> => store.scopes`,
          `type PutPricing = paths["/api/v3/customisers/{customiser_id}/pricing"]["put"]`,
          `export const customiser: PutPricing["parameters"]["path"]["customiser_id"] = 12`,
          `export const key: PutPricing["parameters"]["header"]["Idempotency-Key"] = "0b9f6c1e"`,
          `type Method = NonNullable<NonNullable<components["schemas"]["PricingDocumentWrite"]["price_lists"]>[number]["letter_pricing_method"]>`,
          `export const method: Method = "fixed_letter"`,
          `// @ts-expect-error a closed set refuses what the server refuses`,
          `export const wrong: Method = "per_letter"`,
          `type Order = components["schemas"]["Order"]`,
          `export const total = (order: Order): number => order.total_amount + 1`
        ].join("\n")
      )
      const program = ts.createProgram([join(dir, "client.ts")], {
        strict: true,
        noEmit: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        skipLibCheck: true,
        types: []
      })
      const diagnostics = ts.getPreEmitDiagnostics(program).map((diagnostic) =>
        ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n")
      )
      expect(diagnostics).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe.each(databaseVariants())("the examples, sent to the real handler ($name)", (database) => {
  let db: TestDatabase
  let answers: ReadonlyArray<ExampleAnswer> = []

  beforeAll(async () => {
    db = await database.create()
    // The served document lists the operations this deployment has.
    const served = startApp(db.config)
    const document = JSON.parse(await served.handlerText("/api/v3/openapi.json")) as Document
    await served.dispose()
    const documented = operations(document).map(({ method, path, operation }) => ({ method, path, operationId: operation.operationId }))
    answers = (await runExamples(db.config, documented)).answers
  })
  afterAll(async () => {
    await db.cleanup()
  })

  // The same keys at every level of objects (arrays by their first item): the example is the shape sent.
  const shapeOf = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.length === 0 ? [] : [shapeOf(value[0])]
    if (typeof value !== "object" || value === null) return typeof value
    return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([key, member]) => [key, shapeOf(member)]))
  }

  it("answers every example request with the example's status and an answer of the example's shape", () => {
    expect(answers.map((answer) => answer.operationId).sort()).toEqual(
      operations().map(({ operation }) => operation.operationId).sort()
    )
    for (const answer of answers) {
      const example = OPERATION_EXAMPLES[answer.operationId]
      expect(answer.status, `${answer.operationId}: ${JSON.stringify(answer.body)}`).toBe(example?.status)
      const { operation } = operations().find(({ operation }) => operation.operationId === answer.operationId) ?? {}
      const [media] = Object.values(operation?.responses[String(example?.status)]?.content ?? {})
      const validate = validatorOf(media?.schema ?? {})
      expect(validate(answer.body), `${answer.operationId} ${JSON.stringify(validate.errors)}`).toBe(true)
      expect(JSON.stringify(shapeOf(answer.body)), answer.operationId).toBe(JSON.stringify(shapeOf(example?.response)))
    }
  })
})
