import { defaultSettings } from "@signcraft/core"
import { Redacted } from "effect"
import { describe, expect, it } from "vitest"
import { type ConfigResult, loadConfig, redactUrlPassword, type ServerConfig } from "../src/config.js"

const valid = (result: ConfigResult): ServerConfig => {
  if (result._tag === "Invalid") throw new Error(`expected a valid config, got: ${result.errors.join("; ")}`)
  return result.config
}

const invalid = (result: ConfigResult): ReadonlyArray<string> => {
  if (result._tag === "Valid") throw new Error("expected an invalid config")
  return result.errors
}

describe("loadConfig: defaults", () => {
  it("uses the documented defaults for an empty environment", () => {
    const config = valid(loadConfig({}))
    expect(config.port).toBe(8080)
    expect(config.host).toBe("127.0.0.1")
    expect(config.database).toEqual({ _tag: "Embedded", location: { dataDir: "./.data" }, schema: "signcraft" })
    expect(config.mcp).toBeUndefined()
    expect(config.settings).toMatchObject({
      baseUrl: "http://localhost:8080",
      environment: "development",
      operatorToken: undefined,
      rateLimitPerKeyPerMinute: 600,
      rateLimitPerIpPerMinute: 1200,
      registrationLimitPerHour: 20,
      registrationLimitPerDay: 100,
      webhookRetryBaseMs: 30_000
    })
    expect(config.settings.maxBodyBytes).toBeGreaterThan(0)
  })

  it("derives the default base URL from PORT", () => {
    expect(valid(loadConfig({ PORT: "9000" })).settings.baseUrl).toBe("http://localhost:9000")
  })

  it("treats empty and blank values as unset", () => {
    const config = valid(loadConfig({ PORT: "", DATABASE_URL: "  ", OPERATOR_TOKEN: "", SIGNCRAFT_ENV: "" }))
    expect(config.port).toBe(8080)
    expect(config.database._tag).toBe("Embedded")
    expect(config.settings.operatorToken).toBeUndefined()
    expect(config.settings.environment).toBe("development")
  })

  it("ignores variables it does not know", () => {
    expect(loadConfig({ PATH: "/usr/bin", HOME: "/root" })._tag).toBe("Valid")
  })
})

describe("loadConfig: every variable", () => {
  const config = valid(loadConfig({
    PORT: "3000",
    HOST: "0.0.0.0",
    BASE_URL: "https://api.example.com/",
    MCP_PORT: "3001",
    MCP_URL: "https://mcp.example.com",
    DATABASE_URL: "postgresql://app:secret@db.internal:5433/signcraft",
    DATA_DIR: "/var/lib/signcraft",
    DATABASE_SCHEMA: "signs",
    OPERATOR_TOKEN: "op-token-123-and-long-enough-for-production",
    SIGNCRAFT_ENV: "production",
    SECRETS_KEY: Buffer.alloc(32, 1).toString("base64"),
    RATE_LIMIT_PER_KEY_PER_MINUTE: "10",
    RATE_LIMIT_PER_IP_PER_MINUTE: "20",
    REGISTRATION_LIMIT_PER_HOUR: "3",
    REGISTRATION_LIMIT_PER_DAY: "4",
    REGISTRATION_UNUSED_CLIENT_CAP: "50",
    STOREFRONT_LIMIT_PER_ADDRESS_PER_MINUTE: "7",
    WEBHOOK_RETRY_BASE_MS: "500"
  }))

  it("reads the listener", () => {
    expect(config.port).toBe(3000)
    expect(config.host).toBe("0.0.0.0")
  })

  it("strips the trailing slash of BASE_URL", () => {
    expect(config.settings.baseUrl).toBe("https://api.example.com")
  })

  it("keeps MCP_PORT and MCP_URL", () => {
    expect(config.mcp).toEqual({ port: 3001, url: "https://mcp.example.com" })
  })

  it("uses DATABASE_URL instead of the embedded database", () => {
    expect(config.database).toEqual({ _tag: "Postgres", url: "postgresql://app:secret@db.internal:5433/signcraft", schema: "signs" })
  })

  it("keeps the operator token redacted", () => {
    const token = config.settings.operatorToken
    expect(token).toBeDefined()
    if (token !== undefined) expect(Redacted.value(token)).toBe("op-token-123-and-long-enough-for-production")
    expect(String(token)).not.toContain("op-token-123-and-long-enough-for-production")
    expect(JSON.stringify(config)).not.toContain("op-token-123-and-long-enough-for-production")
  })

  it("reads the environment and the quotas", () => {
    expect(config.settings).toMatchObject({
      environment: "production",
      rateLimitPerKeyPerMinute: 10,
      rateLimitPerIpPerMinute: 20,
      registrationLimitPerHour: 3,
      registrationLimitPerDay: 4,
      unusedClientCap: 50,
      storefrontWritesPerAddressPerMinute: 7,
      webhookRetryBaseMs: 500
    })
  })

  it("reads DATA_DIR when there is no DATABASE_URL", () => {
    expect(valid(loadConfig({ DATA_DIR: "/tmp/x" })).database).toEqual({ _tag: "Embedded", location: { dataDir: "/tmp/x" }, schema: "signcraft" })
  })

  it("accepts postgres://, IPv6 and host-name listeners, and every environment", () => {
    expect(valid(loadConfig({ DATABASE_URL: "postgres://localhost/db" })).database._tag).toBe("Postgres")
    expect(valid(loadConfig({ HOST: "::1" })).host).toBe("::1")
    expect(valid(loadConfig({ HOST: "localhost" })).host).toBe("localhost")
    const production = { BASE_URL: "https://signs.example", SECRETS_KEY: Buffer.alloc(32, 2).toString("base64") }
    for (const env of ["development", "test", "production"]) {
      expect(valid(loadConfig({ SIGNCRAFT_ENV: env, ...production })).settings.environment).toBe(env)
    }
  })

  it("accepts a base URL with a path prefix and trims surrounding spaces", () => {
    expect(valid(loadConfig({ BASE_URL: " http://localhost:8080/signcraft// " })).settings.baseUrl).toBe(
      "http://localhost:8080/signcraft"
    )
  })
})

describe("loadConfig: invalid values", () => {
  const single = (env: Record<string, string>) => {
    const errors = invalid(loadConfig(env))
    expect(errors).toHaveLength(1)
    return errors[0]
  }

  it.each([
    ["abc", `PORT must be an integer from 1 to 65535, got "abc"`],
    ["0", `PORT must be an integer from 1 to 65535, got "0"`],
    ["65536", `PORT must be an integer from 1 to 65535, got "65536"`],
    ["80.5", `PORT must be an integer from 1 to 65535, got "80.5"`],
    ["-1", `PORT must be an integer from 1 to 65535, got "-1"`],
    ["1e3", `PORT must be an integer from 1 to 65535, got "1e3"`]
  ])("PORT=%s", (value, message) => {
    expect(single({ PORT: value })).toBe(message)
  })

  it.each(["not a host", "exa_mple.com", "-bad.example", "http://localhost"])("HOST=%s", (value) => {
    expect(single({ HOST: value })).toBe(`HOST must be an IP address or a host name, got ${JSON.stringify(value)}`)
  })

  it.each(["localhost:8080", "/relative", "ftp://example.com", "not a url"])("BASE_URL=%s", (value) => {
    expect(single({ BASE_URL: value })).toBe(
      `BASE_URL must be an absolute http:// or https:// URL, got ${JSON.stringify(value)}`
    )
  })

  it("rejects a BASE_URL with a query, a fragment or credentials, without showing a password", () => {
    expect(single({ BASE_URL: "http://example.com/?a=1" })).toBe(
      `BASE_URL must be an http(s) URL without credentials, query or fragment, got "http://example.com/?a=1"`
    )
    expect(single({ BASE_URL: "http://example.com/#x" })).toContain("BASE_URL must be")
    const message = single({ BASE_URL: "http://user:hunter2@example.com" })
    expect(message).toContain("BASE_URL must be")
    expect(message).not.toContain("hunter2")
  })

  it.each(["mysql://u@h/db", "http://db.example.com", "localhost:5432", "not a url"])("DATABASE_URL=%s", (value) => {
    expect(single({ DATABASE_URL: value })).toBe(
      `DATABASE_URL must be a postgres:// or postgresql:// connection URL, got ${JSON.stringify(value)}`
    )
  })

  it.each(["Signcraft", "sign-craft", "1signs", "pg_signs", "public.signs", "x".repeat(64)])("DATABASE_SCHEMA=%s", (value) => {
    expect(single({ DATABASE_SCHEMA: value })).toBe(
      `DATABASE_SCHEMA must be a lower-case SQL identifier: a letter or _, then letters, digits or _, at most 63 characters, not pg_… or information_schema, got ${JSON.stringify(value)}`
    )
  })

  it("never shows the password of a bad DATABASE_URL", () => {
    const message = single({ DATABASE_URL: "mysql://app:hunter2@db/x" })
    expect(message).toBe(`DATABASE_URL must be a postgres:// or postgresql:// connection URL, got "mysql://app:***@db/x"`)
  })

  it("rejects an OPERATOR_TOKEN that cannot be sent as a bearer token, without showing it", () => {
    const message = single({ OPERATOR_TOKEN: "two words" })
    expect(message).toBe("OPERATOR_TOKEN must not contain spaces or control characters (value not shown)")
    expect(message).not.toContain("two words")
  })

  it("reads OAUTH_ISS_PARAMETER as true or false, off by default", () => {
    expect(valid(loadConfig({})).settings.oauthIssParameter).toBe(false)
    expect(valid(loadConfig({ OAUTH_ISS_PARAMETER: "true" })).settings.oauthIssParameter).toBe(true)
    expect(valid(loadConfig({ OAUTH_ISS_PARAMETER: "false" })).settings.oauthIssParameter).toBe(false)
    expect(single({ OAUTH_ISS_PARAMETER: "yes" })).toBe(`OAUTH_ISS_PARAMETER must be true or false, got "yes"`)
  })

  it.each(["prod", "Development", "staging"])("SIGNCRAFT_ENV=%s", (value) => {
    expect(single({ SIGNCRAFT_ENV: value })).toBe(
      `SIGNCRAFT_ENV must be one of development, test, production, got ${JSON.stringify(value)}`
    )
  })

  it.each([
    "RATE_LIMIT_PER_KEY_PER_MINUTE",
    "RATE_LIMIT_PER_IP_PER_MINUTE",
    "REGISTRATION_LIMIT_PER_HOUR",
    "REGISTRATION_LIMIT_PER_DAY",
    "REGISTRATION_UNUSED_CLIENT_CAP",
    "STOREFRONT_LIMIT_PER_ADDRESS_PER_MINUTE",
    "WEBHOOK_RETRY_BASE_MS"
  ])("%s must be a positive whole number", (name) => {
    for (const value of ["0", "-5", "1.5", "ten", "99999999999999999999"]) {
      expect(single({ [name]: value })).toBe(`${name} must be a whole number of at least 1, got ${JSON.stringify(value)}`)
    }
  })

  it("requires MCP_PORT and MCP_URL together", () => {
    expect(single({ MCP_PORT: "9000" })).toBe("MCP_PORT and MCP_URL must be set together: MCP_PORT is set, MCP_URL is not")
    expect(single({ MCP_URL: "http://localhost:9000" })).toBe(
      "MCP_PORT and MCP_URL must be set together: MCP_URL is set, MCP_PORT is not"
    )
  })

  it("checks MCP_PORT and MCP_URL", () => {
    expect(single({ MCP_PORT: "x", MCP_URL: "http://localhost:9000" })).toBe(
      `MCP_PORT must be an integer from 1 to 65535, got "x"`
    )
    expect(single({ MCP_PORT: "9000", MCP_URL: "mcp.example.com" })).toBe(
      `MCP_URL must be an absolute http:// or https:// URL, got "mcp.example.com"`
    )
    expect(single({ PORT: "9000", MCP_PORT: "9000", MCP_URL: "http://localhost:9000" })).toBe(
      "MCP_PORT must differ from PORT (both are 9000)"
    )
  })

  it("reports every problem at once", () => {
    const errors = invalid(loadConfig({
      PORT: "abc",
      HOST: "bad host",
      BASE_URL: "nope",
      MCP_PORT: "1",
      DATABASE_URL: "mysql://x",
      OPERATOR_TOKEN: "a b",
      SIGNCRAFT_ENV: "prod",
      RATE_LIMIT_PER_KEY_PER_MINUTE: "x",
      RATE_LIMIT_PER_IP_PER_MINUTE: "x",
      REGISTRATION_LIMIT_PER_HOUR: "x",
      REGISTRATION_LIMIT_PER_DAY: "x",
      WEBHOOK_RETRY_BASE_MS: "x"
    }))
    const named = [
      "PORT",
      "HOST",
      "BASE_URL",
      "MCP_PORT and MCP_URL",
      "DATABASE_URL",
      "OPERATOR_TOKEN",
      "SIGNCRAFT_ENV",
      "RATE_LIMIT_PER_KEY_PER_MINUTE",
      "RATE_LIMIT_PER_IP_PER_MINUTE",
      "REGISTRATION_LIMIT_PER_HOUR",
      "REGISTRATION_LIMIT_PER_DAY",
      "WEBHOOK_RETRY_BASE_MS"
    ]
    expect(errors).toHaveLength(named.length)
    expect(errors.map((error, index) => error.startsWith(`${named[index]} must`))).toEqual(named.map(() => true))
    for (const error of errors) expect(error).not.toContain("\n")
  })

  it("names values by their flag when told where they came from", () => {
    const errors = invalid(loadConfig({ PORT: "x", SIGNCRAFT_ENV: "y" }, { labels: { PORT: "--port" } }))
    expect(errors).toEqual([
      `--port must be an integer from 1 to 65535, got "x"`,
      `SIGNCRAFT_ENV must be one of development, test, production, got "y"`
    ])
  })
})

describe("redactUrlPassword", () => {
  it("hides the password and keeps the rest", () => {
    expect(redactUrlPassword("postgres://user:pa55@host:5432/db")).toBe("postgres://user:***@host:5432/db")
    expect(redactUrlPassword("postgres://user@host/db")).toBe("postgres://user@host/db")
    expect(redactUrlPassword("postgres://host/db")).toBe("postgres://host/db")
  })
})

describe("loadConfig: production guards", () => {
  const key = Buffer.alloc(32, 3).toString("base64")
  const errorsOf = (env: Record<string, string>) => {
    const result = loadConfig({ SIGNCRAFT_ENV: "production", ...env })
    return result._tag === "Invalid" ? result.errors : []
  }

  it("refuses to start without an HTTPS BASE_URL, a SECRETS_KEY, or with an operator token under 32 characters", () => {
    expect(errorsOf({ BASE_URL: "http://signs.example", SECRETS_KEY: key })).toEqual(["BASE_URL must be an https:// URL in production"])
    expect(errorsOf({ BASE_URL: "https://signs.example" })).toEqual([expect.stringContaining("SECRETS_KEY must be set in production")])
    const short = errorsOf({ BASE_URL: "https://signs.example", SECRETS_KEY: key, OPERATOR_TOKEN: "x".repeat(31) })
    expect(short).toEqual([expect.stringContaining("OPERATOR_TOKEN must be at least 32 characters")])
    expect(short.join(" ")).not.toContain("x".repeat(31))
    expect(errorsOf({ BASE_URL: "https://signs.example", SECRETS_KEY: key, OPERATOR_TOKEN: "x".repeat(32) })).toEqual([])
  })

  it("refuses a SECRETS_KEY that is not 32 bytes of base64 in any environment, without showing it", () => {
    const result = loadConfig({ SECRETS_KEY: "too-short-secret" })
    expect(result._tag).toBe("Invalid")
    if (result._tag === "Invalid") {
      expect(result.errors.join(" ")).toContain("SECRETS_KEY must be")
      expect(result.errors.join(" ")).not.toContain("too-short-secret")
    }
    // A rotation list: the new key first, the old one still opening what it sealed.
    expect(valid(loadConfig({ SECRETS_KEY: `${key},${Buffer.alloc(32, 4).toString("base64")}` })).settings.secretsKey).toBeDefined()
  })
})

describe("loadConfig: TRUST_PROXY", () => {
  it("reads a hop count or a list of CIDRs, trusts nothing by default, and names a bad value", () => {
    expect(valid(loadConfig({})).settings.trustProxy).toEqual({ _tag: "Hops", hops: 0 })
    expect(valid(loadConfig({ TRUST_PROXY: "2" })).settings.trustProxy).toEqual({ _tag: "Hops", hops: 2 })
    expect(valid(loadConfig({ TRUST_PROXY: "10.0.0.0/8,fd00::/8" })).settings.trustProxy._tag).toBe("Ranges")
    const bad = loadConfig({ TRUST_PROXY: "the load balancer" })
    expect(bad._tag).toBe("Invalid")
    if (bad._tag === "Invalid") expect(bad.errors.join(" ")).toContain("TRUST_PROXY must be")
  })
})

describe("loadConfig: SIGNCRAFT_DISABLE", () => {
  it("reads a comma list of parts, switches nothing off by default, and refuses an unknown name naming it", () => {
    expect(valid(loadConfig({})).settings.disable).toEqual([])
    expect(valid(loadConfig({ SIGNCRAFT_DISABLE: " agent, docs,,legacy " })).settings.disable).toEqual(["agent", "docs", "legacy"])
    expect(valid(loadConfig({ SIGNCRAFT_DISABLE: "storefront,dashboard" })).settings.disable).toEqual(["storefront", "dashboard"])
    const bad = loadConfig({ SIGNCRAFT_DISABLE: "agent,webhooks" })
    expect(bad._tag).toBe("Invalid")
    if (bad._tag === "Invalid") {
      expect(bad.errors.join(" ")).toContain("SIGNCRAFT_DISABLE must be a comma list of agent, docs, storefront, legacy, dashboard")
      expect(bad.errors.join(" ")).toContain("unknown: webhooks")
    }
  })

  it("refuses an unknown name from an embedder too", () => {
    expect(() => defaultSettings({ disable: ["docs", "admin"] })).toThrow("disable must be a comma list of agent, docs, storefront, legacy, dashboard; unknown: admin")
    expect(defaultSettings({ disable: "agent" }).disable).toEqual(["agent"])
  })
})

describe("loadConfig: operations", () => {
  it("reads METRICS_TOKEN as a secret, unset by default, and refuses one with spaces without showing it", () => {
    expect(valid(loadConfig({})).settings.metricsToken).toBeUndefined()
    const token = valid(loadConfig({ METRICS_TOKEN: "scrape-token-0123456789" })).settings.metricsToken
    expect(token === undefined ? undefined : Redacted.value(token)).toBe("scrape-token-0123456789")
    const errors = invalid(loadConfig({ METRICS_TOKEN: "two words" }))
    expect(errors).toEqual(["METRICS_TOKEN must not contain spaces or control characters (value not shown)"])
  })

  it("reads LOG_FORMAT json or text, leaves it to the terminal when unset, and refuses anything else", () => {
    expect(valid(loadConfig({})).logFormat).toBeUndefined()
    expect(valid(loadConfig({ LOG_FORMAT: "json" })).logFormat).toBe("json")
    expect(valid(loadConfig({ LOG_FORMAT: "TEXT" })).logFormat).toBe("text")
    expect(invalid(loadConfig({ LOG_FORMAT: "xml" }))).toEqual(['LOG_FORMAT must be json or text, got "xml"'])
  })

  it("exports traces to OTEL_EXPORTER_OTLP_ENDPOINT as service OTEL_SERVICE_NAME (signcraft by default)", () => {
    expect(valid(loadConfig({})).traces).toBeUndefined()
    expect(valid(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318/" })).traces).toEqual({
      endpoint: "http://127.0.0.1:4318",
      serviceName: "signcraft"
    })
    expect(valid(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://otel.example", OTEL_SERVICE_NAME: "signs-eu" })).traces?.serviceName).toBe("signs-eu")
    expect(invalid(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: "grpc://collector:4317" }))).toEqual([
      'OTEL_EXPORTER_OTLP_ENDPOINT must be an http:// or https:// URL, got "grpc://collector:4317"'
    ])
  })
})
