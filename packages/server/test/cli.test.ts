import { describe, expect, it } from "vitest"
import { parseCommandLine } from "../src/cli.js"

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
