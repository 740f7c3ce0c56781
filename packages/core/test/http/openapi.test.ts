import { Validator } from "@seriousme/openapi-schema-validator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, startApp, type TestDatabase } from "@signcraft/test-kit"

type Schema = { readonly $ref?: string } & Record<string, unknown>
type Media = Record<string, { readonly schema?: Schema }>
type Operation = {
  readonly requestBody?: { readonly content: Media }
  readonly responses: Record<string, { readonly content?: Media }>
}
type Document = {
  readonly paths: Record<string, Record<string, Operation>>
  readonly components: { readonly schemas: Record<string, Schema> }
}

const WRITES = new Set(["post", "put", "patch"])

// The one write that carries no body: it acts on the delivery its path names.
const BODILESS_WRITES = [
  "post /api/v3/webhook-subscriptions/{webhook_id}/rotate-secret",
  "post /api/v3/webhook-subscriptions/{webhook_id}/deliveries/{delivery_id}/redeliver",
  "post /api/v3/webhook-subscriptions/{webhook_id}/events/{event_id}/resend",
  "post /api/v3/webhook-subscriptions/{webhook_id}/test"
]

const [embedded] = databaseVariants()

describe("the served OpenAPI document", () => {
  let db: TestDatabase
  let app: ReturnType<typeof startApp>
  let doc: Document

  beforeAll(async () => {
    if (embedded === undefined) throw new Error("no embedded database variant")
    db = await embedded.create()
    app = startApp(db.config)
    doc = JSON.parse(await app.handlerText("/api/v3/openapi.json"))
  })
  afterAll(async () => {
    await app.dispose()
    await db.cleanup()
  })

  const resolve = (schema: Schema | undefined): Schema | undefined =>
    schema?.$ref === undefined ? schema : doc.components.schemas[schema.$ref.split("/").at(-1) ?? ""]

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ id: `${method} ${path}`, method, operation }))
    )

  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(doc)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
  })

  it("declares a request schema for every write that takes a body", () => {
    const bodiless: Array<string> = []
    for (const { id, method, operation } of operations()) {
      if (!WRITES.has(method)) continue
      const media = Object.values(operation.requestBody?.content ?? {})
      if (media.length === 0) bodiless.push(id)
      for (const { schema } of media) expect(Object.keys(resolve(schema) ?? {}), id).not.toHaveLength(0)
    }
    expect(bodiless).toEqual(BODILESS_WRITES)
  })

  it("gives every error status a problem document schema", () => {
    let errors = 0
    for (const { id, operation } of operations()) {
      for (const [status, response] of Object.entries(operation.responses)) {
        if (Number(status) < 400) continue
        errors += 1
        const media = response.content?.["application/problem+json"]
        expect(media, `${id} ${status}`).toBeDefined()
        expect(resolve(media?.schema)?.properties, `${id} ${status}`).toHaveProperty("code")
      }
    }
    expect(errors).toBeGreaterThan(0)
  })

  it("lists the accepted analytics periods as the period parameter's enum", () => {
    const parameters = (doc.paths["/api/v3/analytics/summary"]?.get as { readonly parameters?: ReadonlyArray<Record<string, unknown>> } | undefined)?.parameters ?? []
    const period = parameters.find((parameter) => parameter.in === "query" && parameter.name === "period")
    expect(period?.schema).toEqual({ type: "string", enum: ["7d", "30d", "90d", "365d"] })
  })
})
