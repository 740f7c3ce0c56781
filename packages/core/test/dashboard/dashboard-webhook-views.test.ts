import { Result } from "effect"
import { describe, expect, it } from "vitest"
import { recoveryWindowOf } from "../../src/http/dashboard/forms.js"
import { deliveryRowView, disabledBecause, healthOf } from "../../src/presenters/dashboard/webhooks.js"
import type { AttemptRecord, DeliveryRecord } from "../../src/services/webhooks/deliveries.js"

const attempt = (overrides: Partial<AttemptRecord>): AttemptRecord => ({
  attemptNumber: 1,
  startedAt: "2026-11-21T14:03:00.000Z",
  durationMs: 12,
  responseStatus: 500,
  responseExcerpt: `{"error":"nope"}`,
  error: "HTTP 500",
  trigger: "scheduled",
  status: "pending",
  nextAttemptAt: null,
  ...overrides
})

const delivery = (attempts: ReadonlyArray<AttemptRecord>, trigger: DeliveryRecord["trigger"] = "scheduled"): DeliveryRecord => ({
  id: 7,
  subscriptionId: 3,
  eventId: 42,
  topic: "order:created",
  status: "delivered",
  trigger,
  attemptCount: attempts.length,
  nextAttemptAt: null,
  deliveredAt: null,
  lastError: null,
  createdAt: "2026-11-21T14:00:00.000Z",
  attempts
})

describe("the dashboard's webhook views", () => {
  it("names a delivery by its event and shows the trigger of its latest attempt, not the delivery's reset one", () => {
    const row = deliveryRowView(delivery([attempt({}), attempt({ attemptNumber: 2, responseStatus: 200, responseExcerpt: "ok", error: null, trigger: "manual" })]))
    expect(row.eventId).toBe(42)
    expect(row.webhookId).toBe("evt_42")
    expect(row.trigger).toBe("manual")
    expect(row.attempts.map((a) => [a.outcome, a.trigger, a.responseExcerpt])).toEqual([
      ["HTTP 500", "scheduled", `{"error":"nope"}`],
      ["HTTP 200", "manual", "ok"]
    ])
    // Not attempted yet: what will make the first attempt.
    expect(deliveryRowView(delivery([], "recovery")).trigger).toBe("recovery")
  })

  it("keeps an attempt's error only when it says more than the status", () => {
    const [repeated, timedOut] = deliveryRowView(delivery([
      attempt({}),
      attempt({ attemptNumber: 2, responseStatus: null, responseExcerpt: null, error: "timed out after 10000 ms" })
    ])).attempts
    expect(repeated?.error).toBeNull()
    expect(timedOut?.outcome).toBe("No answer")
    expect(timedOut?.error).toBe("timed out after 10000 ms")
  })

  it("says why a subscription was disabled", () => {
    expect(healthOf("disabled", undefined, "gone")).toEqual({ tone: "bad", label: "Disabled (gone)" })
    expect(disabledBecause("gone")).toContain("410 Gone")
    expect(disabledBecause("failing")).toContain("five days")
  })

  it("reads a recovery window as UTC, refusing impossible dates and an end not after the start", () => {
    expect(recoveryWindowOf({ since: "2026-11-21T14:00", until: "" })).toEqual(Result.succeed({ since: new Date("2026-11-21T14:00:00Z"), until: undefined }))
    expect(recoveryWindowOf({ since: "2026-11-21T14:00:30", until: "2026-11-22T00:00" })).toEqual(
      Result.succeed({ since: new Date("2026-11-21T14:00:30Z"), until: new Date("2026-11-22T00:00:00Z") })
    )
    const faults = (form: { since: string; until?: string }) => {
      const window = recoveryWindowOf(form)
      return Result.isFailure(window) ? window.failure.map((e) => e.pointer) : []
    }
    expect(faults({ since: "2026-02-30T10:00" })).toEqual(["/since"])
    expect(faults({ since: "2026-11-21T25:00" })).toEqual(["/since"])
    expect(faults({ since: "2026-11-21T14:00", until: "2026-11-21T14:00" })).toEqual(["/until"])
    expect(faults({ since: "2026-11-21T14:00", until: "tomorrow" })).toEqual(["/until"])
  })
})
