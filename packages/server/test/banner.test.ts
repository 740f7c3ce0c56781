import { Option } from "effect"
import { describe, expect, it } from "vitest"
import { bannerLines, describeDatabase } from "../src/banner.js"
import { type ServerConfig, loadConfig } from "../src/config.js"

const config = (env: Record<string, string>): ServerConfig => {
  const result = loadConfig(env)
  if (result._tag === "Invalid") throw new Error(result.errors.join("; "))
  return result.config
}

describe("describeDatabase", () => {
  it("shows the embedded directory as an absolute path", () => {
    expect(describeDatabase({ _tag: "Embedded", location: { dataDir: "./.data" } }, "/srv/app")).toBe(
      "embedded, /srv/app/.data"
    )
    expect(describeDatabase({ _tag: "Embedded", location: "memory" })).toBe("embedded, in memory")
  })

  it("shows the PostgreSQL server without the password or query", () => {
    const text = describeDatabase({ _tag: "Postgres", url: "postgres://app:hunter2@db.internal:5433/sc?password=x" })
    expect(text).toBe("postgres, app@db.internal:5433/sc")
  })

  it("names the schema when there is one", () => {
    expect(describeDatabase({ _tag: "Postgres", url: "postgres://app@db/sc", schema: "signs" })).toBe("postgres, app@db/sc, schema signs")
  })
})

describe("bannerLines", () => {
  it("prints the listen URL, base URL, documentation and database, and no secret", () => {
    const lines = bannerLines(
      "http://127.0.0.1:8080",
      config({ OPERATOR_TOKEN: "secret-operator-token", DATABASE_URL: "postgres://u:pw@h/db" }),
      Option.none()
    ).join("\n")
    expect(lines).toContain("http://127.0.0.1:8080")
    expect(lines).toContain("http://localhost:8080/docs")
    expect(lines).toContain("postgres, u@h/db")
    expect(lines).not.toContain("secret-operator-token")
    expect(lines).not.toContain("pw")
    expect(lines).not.toContain("API key")
  })

  it("prints the demo key and sign-in once created", () => {
    const lines = bannerLines("http://127.0.0.1:8080", config({}), Option.some({
      companyId: 1,
      storeId: 2,
      person: { email: "demo@signcraft.test", password: "pw123" },
      apiKey: "sk_test_abc"
    })).join("\n")
    expect(lines).toContain("sk_test_abc")
    expect(lines).toContain("demo@signcraft.test / pw123")
    expect(lines).toContain("operator API   off")
  })

  it("prints the base URL's path in every URL, and the parts switched off as off", () => {
    const lines = bannerLines("http://127.0.0.1:8080", config({ BASE_URL: "https://shop.example/signs/", SIGNCRAFT_DISABLE: "docs,agent" }), Option.none())
      .join("\n")
    expect(lines).toContain("base URL       https://shop.example/signs\n")
    expect(lines).toContain("documentation  off (SIGNCRAFT_DISABLE)")
    expect(lines).toContain("agent (MCP)    off (SIGNCRAFT_DISABLE)")
    expect(bannerLines("http://127.0.0.1:8080", config({ BASE_URL: "https://shop.example/signs" }), Option.none()).join("\n"))
      .toContain("agent (MCP)    https://shop.example/signs/mcp")
  })

})
