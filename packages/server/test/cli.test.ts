import { describe, expect, it } from "vitest"
import { parseCommandLine, usageErrorText } from "../src/cli.js"

describe("parseCommandLine", () => {
  it("serves by default, with the environment unchanged", () => {
    expect(parseCommandLine([], { PORT: "1234" })).toEqual({ _tag: "Serve", env: { PORT: "1234" }, labels: {} })
    expect(parseCommandLine(["serve"], {})).toEqual({ _tag: "Serve", env: {}, labels: {} })
  })

  it("lays flags over the environment and names them for error messages", () => {
    const command = parseCommandLine(
      [
        "serve",
        "--port",
        "9000",
        "--host=0.0.0.0",
        "--base-url",
        "https://x.example",
        "--data-dir",
        "/d",
        "--database-url",
        "postgres://h/db",
        "--env",
        "test"
      ],
      { PORT: "1", OPERATOR_TOKEN: "t" }
    )
    expect(command).toEqual({
      _tag: "Serve",
      env: {
        PORT: "9000",
        HOST: "0.0.0.0",
        BASE_URL: "https://x.example",
        DATA_DIR: "/d",
        DATABASE_URL: "postgres://h/db",
        SIGNCRAFT_ENV: "test",
        OPERATOR_TOKEN: "t"
      },
      labels: {
        PORT: "--port",
        HOST: "--host",
        BASE_URL: "--base-url",
        DATA_DIR: "--data-dir",
        DATABASE_URL: "--database-url",
        SIGNCRAFT_ENV: "--env"
      }
    })
  })

  it("shows help", () => {
    expect(parseCommandLine(["--help"], {})).toEqual({ _tag: "Help" })
    expect(parseCommandLine(["-h"], {})).toEqual({ _tag: "Help" })
    expect(parseCommandLine(["serve", "--help"], {})).toEqual({ _tag: "Help" })
    expect(parseCommandLine(["help"], {})).toEqual({ _tag: "Help" })
  })

  it("rejects unknown commands, flags and extra arguments", () => {
    expect(parseCommandLine(["migrate"], {})._tag).toBe("UsageError")
    expect(parseCommandLine(["--verbose"], {})._tag).toBe("UsageError")
    expect(parseCommandLine(["serve", "extra"], {})._tag).toBe("UsageError")
    expect(parseCommandLine(["--port"], {})._tag).toBe("UsageError")
  })
})

describe("parseCommandLine: integrator subcommands", () => {
  it("takes the base URL from SIGNCRAFT_BASE_URL when --base-url is absent; the flag wins", () => {
    const env = { SIGNCRAFT_BASE_URL: "http://127.0.0.1:9999/signs" }
    expect(parseCommandLine(["check"], env)).toEqual({ _tag: "Check", baseUrl: "http://127.0.0.1:9999/signs", json: false })
    expect(parseCommandLine(["migrate", "usage", "--store", "3"], env)).toMatchObject({ baseUrl: "http://127.0.0.1:9999/signs" })
    expect(parseCommandLine(["check", "--base-url", "http://h"], env)).toMatchObject({ baseUrl: "http://h" })
    expect(parseCommandLine(["check"], { SIGNCRAFT_BASE_URL: "" })).toEqual({
      _tag: "UsageError",
      message: `"check" needs --base-url or SIGNCRAFT_BASE_URL`
    })
    expect(parseCommandLine(["check"], { SIGNCRAFT_BASE_URL: "nope" })).toEqual({
      _tag: "UsageError",
      message: "SIGNCRAFT_BASE_URL is not a URL: nope"
    })
  })

  it("words a usage error in two lines that point at --help, not the whole help", () => {
    const text = usageErrorText(`"check" needs --base-url or SIGNCRAFT_BASE_URL`)
    expect(text.trimEnd().split("\n")).toEqual([`signcraft: "check" needs --base-url or SIGNCRAFT_BASE_URL`, `Run "signcraft --help" for usage.`])
  })

  it("reads check, diagnose rate-limit and migrate usage with their flags", () => {
    expect(parseCommandLine(["check", "--base-url", "http://127.0.0.1:8080"], {})).toEqual({
      _tag: "Check",
      baseUrl: "http://127.0.0.1:8080",
      json: false
    })
    expect(parseCommandLine(["diagnose", "rate-limit", "--base-url=http://h", "--json"], {})).toEqual({
      _tag: "DiagnoseRateLimit",
      baseUrl: "http://h",
      json: true
    })
    expect(parseCommandLine(["migrate", "usage", "--base-url", "http://h", "--store", "12"], {})).toEqual({
      _tag: "MigrateUsage",
      baseUrl: "http://h",
      storeId: "12",
      json: false
    })
  })

  it("reads migrate translate with its format, files and optional integration id", () => {
    expect(parseCommandLine(["migrate", "translate", "--from", "v2-order", "a.json", "dir"], {})).toEqual({
      _tag: "MigrateTranslate",
      source: "v2-order",
      paths: ["a.json", "dir"]
    })
    expect(parseCommandLine(["migrate", "translate", "--from", "legacy-order", "--integration-id", "4", "a.json"], {})).toEqual({
      _tag: "MigrateTranslate",
      source: "legacy-order",
      paths: ["a.json"],
      integrationId: 4
    })
  })

  it("refuses incomplete or unknown integrator commands", () => {
    for (
      const args of [
        ["check"],
        ["check", "--base-url", "not a url"],
        ["check", "--base-url", "http://h", "extra"],
        ["diagnose", "--base-url", "http://h"],
        ["diagnose", "quota", "--base-url", "http://h"],
        ["migrate", "usage", "--base-url", "http://h"],
        ["migrate", "translate", "a.json"],
        ["migrate", "translate", "--from", "v9-order", "a.json"],
        ["migrate", "translate", "--from", "v2-order"],
        ["migrate", "translate", "--from", "legacy-order", "--integration-id", "0", "a.json"],
        ["migrate", "rollback"],
        ["check", "--port", "1"]
      ]
    ) {
      expect(parseCommandLine(args, {})._tag).toBe("UsageError")
    }
    expect(parseCommandLine(["check", "--help"], {})).toEqual({ _tag: "Help" })
  })
})
