import { describe, expect, it } from "vitest"
import { formSubmittedPayload } from "../../src/domain/webhooks/form-submission.js"
import { EVENT_TYPES, isWebhookTopic, WEBHOOK_TOPICS } from "../../src/domain/webhooks/topics.js"

describe("event-type catalogue", () => {
  it("has one entry per topic, and a description opening with Deprecated. exactly when deprecated", () => {
    expect(EVENT_TYPES.map((t) => t.topic)).toEqual([...WEBHOOK_TOPICS])
    for (const entry of EVENT_TYPES) {
      expect(entry.description.startsWith("Deprecated."), entry.topic).toBe(entry.deprecated)
      expect(entry.deprecated_on === null, entry.topic).toBe(!entry.deprecated)
    }
    expect(EVENT_TYPES.find((t) => t.topic === "form:submitted")?.deprecated_on).toBe("2026-08-24")
  })

  it("gives each topic an example carrying its documented body key", () => {
    const keys = Object.fromEntries(EVENT_TYPES.map((t) => [t.topic, Object.keys(t.example)]))
    expect(keys).toEqual({ "product:created": ["product"], "order:created": ["order"], "form:submitted": ["form_submission"] })
  })

  it("knows its topics only", () => {
    expect(isWebhookTopic("order:created")).toBe(true)
    expect(isWebhookTopic("order:paid")).toBe(false)
  })
})

describe("formSubmittedPayload", () => {
  it("builds the documented form_submission body, never null strings, timestamps with microseconds", () => {
    const at = new Date("2026-09-01T10:00:00.123Z")
    const body = formSubmittedPayload({
      submissionNumber: 7,
      formId: 3,
      customiser: { id: 42, name: "Quote", createdAt: at, updatedAt: at },
      responses: [{ field_id: "email", name: "Email", input_type: "EMAIL", value: "a@example.com" }],
      createdAt: at
    })
    expect(body).toEqual({
      form_submission: {
        submission_number: 7,
        type: "custom_form_submission",
        form: {
          form_id: 3,
          customiser_id: 42,
          label: "Quote",
          description: "",
          email: "",
          subject: "",
          created_at: "2026-09-01T10:00:00.123000Z",
          updated_at: "2026-09-01T10:00:00.123000Z"
        },
        responses: [{ field_id: "email", value: "a@example.com", name: "Email", input_type: "EMAIL" }],
        created_at: "2026-09-01T10:00:00.123000Z"
      }
    })
    expect(Object.keys(body.form_submission.responses[0] ?? {})).toEqual(["field_id", "value", "name", "input_type"])
  })
})
