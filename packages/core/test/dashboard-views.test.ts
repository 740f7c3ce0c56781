import { describe, expect, it } from "vitest"
import { dailyRevenueSeries } from "../src/domain/analytics/daily-revenue.js"
import { lastUseIsStale } from "../src/domain/credentials/last-used.js"
import { agentRowView } from "../src/presenters/dashboard/agents.js"
import { customiserPricingView } from "../src/presenters/dashboard/pricing.js"
import type { PricingContent } from "../src/domain/pricing/content.js"
import { readableMoney } from "../src/presenters/dashboard/money.js"
import { revenueChart } from "../src/presenters/dashboard/revenue-chart.js"
import { healthOf } from "../src/presenters/dashboard/webhooks.js"

const window = (start: string, days: number) => ({
  period: "7d" as const,
  startsAt: new Date(`${start}T00:00:00Z`),
  endsBefore: new Date(Date.parse(`${start}T00:00:00Z`) + days * 86_400_000)
})

describe("what the dashboard shows", () => {
  it("fills every day of the window, oldest first, with 0 where nothing sold", () => {
    const series = dailyRevenueSeries(window("2026-03-01", 3), [{ day: "2026-03-02", amount: 500 }])
    expect(series).toEqual([{ day: "2026-03-01", amount: 0 }, { day: "2026-03-02", amount: 500 }, { day: "2026-03-03", amount: 0 }])
  })

  it("lays the chart out over the window: the best day at the top of a round axis, empty days on the baseline", () => {
    const chart = revenueChart([{ day: "2026-03-01", amount: 0 }, { day: "2026-03-02", amount: 17_345 }, { day: "2026-03-03", amount: 0 }], "USD")
    expect(chart.points.map((p) => p.label)).toEqual(["1 Mar 2026: $0.00", "2 Mar 2026: $173.45", "3 Mar 2026: $0.00"])
    expect(chart.yTicks.map((t) => t.label)).toEqual(["$0.00", "$50.00", "$100.00", "$150.00", "$200.00"])
    const [first, best, last] = chart.points
    expect(first?.y).toBe(chart.plot.bottom)
    expect(last?.y).toBe(chart.plot.bottom)
    expect(best?.y).toBeGreaterThan(chart.plot.top)
    expect(first?.x).toBe(chart.plot.left)
    expect(last?.x).toBe(chart.plot.right)
    expect(chart.summary).toBe("Daily revenue from 1 Mar 2026 to 3 Mar 2026: $173.45 in total, the best day 2 Mar 2026 with $173.45.")
  })

  it("writes money in its currency's minor units, and leaves an unrecognised code's amount as it is", () => {
    expect(readableMoney(123_456, "USD")).toBe("$1,234.56")
    expect(readableMoney(1_200, "JPY")).toBe("¥1,200")
    expect(readableMoney(1_200, null)).toBe("1,200 (minor units)")
  })

  it("words an endpoint's health: disabled, failing, recovered, healthy", () => {
    const at = new Date("2026-03-02T10:05:00Z")
    expect(healthOf("disabled", undefined)).toEqual({ tone: "bad", label: "Disabled" })
    expect(healthOf("active", { subscriptionId: 1, recentFailures: 3, failingSince: at, lastDeliveredAt: null }))
      .toEqual({ tone: "bad", label: "Failing since 2 Mar 2026, 10:05 UTC" })
    expect(healthOf("active", { subscriptionId: 1, recentFailures: 3, failingSince: null, lastDeliveredAt: at }).tone).toBe("warn")
    expect(healthOf("active", { subscriptionId: 1, recentFailures: 0, failingSince: null, lastDeliveredAt: at })).toEqual({ tone: "ok", label: "Healthy" })
  })

  it("names an agent by the host it sends people back to, or its metadata document's host", () => {
    const base = { id: 1, clientName: "Helper", personId: 1, scopes: [], createdAt: new Date(0), lastUsedAt: null }
    expect(agentRowView({ ...base, clientId: "abc", redirectUris: ["https://app.example/cb", "https://app.example/other"] }).host).toBe("app.example")
    expect(agentRowView({ ...base, clientId: "https://tools.example/client.json", redirectUris: ["http://127.0.0.1:9/cb"] }).host).toBe("tools.example")
    expect(agentRowView({ ...base, clientName: null, clientId: "abc", redirectUris: [] }).name).toBe("abc")
  })

  it("writes a last use at most once a minute", () => {
    const now = new Date("2026-03-02T10:00:00Z")
    expect(lastUseIsStale(null, now)).toBe(true)
    expect(lastUseIsStale(new Date(now.getTime() - 59_999), now)).toBe(false)
    expect(lastUseIsStale(new Date(now.getTime() - 60_000), now)).toBe(true)
  })

  it("reads a price list as a table in the Store's currency, keeping only the columns it uses", () => {
    const content = {
      sizes: [{ size_id: 1, client_key: "small", name: "Small", width_cm: 50, height_cm: 10, char_limit: 20, line_limit: 2 }],
      base_pricing: { mode: "included_in_price_lists", rows: [] },
      price_lists: [{
        name: "Standard",
        rows: [
          { size_id: 1, base_price: { line_1: 1000, line_2: 1500 }, price_per_cm: 1.5 },
          { size_key: "gone", base_price: 2500 }
        ]
      }],
      sheet_pricing: null
    } as unknown as PricingContent
    const customiser = {
      id: 1, storeId: 1, name: "Neon", pricingModel: "simple_letter", productFamily: "neon", selectionMode: "single_style", active: true,
      createdAt: "", updatedAt: ""
    }
    const view = customiserPricingView(customiser, content, "EUR")
    expect(view.sizes).toEqual([{ name: "Small", dimensions: "50 × 10 cm", limits: "20 characters, 2 lines" }])
    expect(view.priceLists).toEqual([{
      name: "Standard",
      columns: ["Size", "Base price", "Per cm"],
      rows: [["Small", "Line 1: €10.00; Line 2: €15.00", "€1.50 / cm"], ["gone", "€25.00", ""]]
    }])
  })
})
