import { describe, expect, it } from "vitest"
import { defaultSettings } from "../src/services/settings.js"

describe("defaultSettings", () => {
  it("keeps the default for a setting given as undefined (an unset process.env variable)", () => {
    const unset: Record<string, string | undefined> = {}
    const settings = defaultSettings({ baseUrl: unset.BASE_URL, retentionDays: undefined, environment: "test" })
    expect(settings.baseUrl).toBe("http://localhost:8080")
    expect(settings.retentionDays).toBe(30)
    expect(settings.environment).toBe("test")
  })

  it("takes every value that is given", () => {
    expect(defaultSettings({ baseUrl: "https://shop.example/signs", retentionDays: 7 })).toMatchObject({
      baseUrl: "https://shop.example/signs",
      retentionDays: 7
    })
  })
})
