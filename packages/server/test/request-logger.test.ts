import { describe, expect, it } from "vitest"
import { makeLineOutput } from "../src/log-output.js"
import { requestLogger, requestLoggerFor } from "../src/serve.js"

const logged = async (line: Readonly<Record<string, string | number>>) => {
  const writes: Array<string> = []
  requestLogger(makeLineOutput((chunk) => writes.push(chunk)))(line)
  await new Promise((resolve) => setImmediate(resolve))
  return writes.join("")
}

describe("requestLogger", () => {
  it("writes the line as one JSON object with the time first", async () => {
    const line = { level: "info", request_id: "req_1", method: "GET", route: "/a \"b\"", status: 200, duration_ms: 1.5 }
    const text = await logged(line)
    expect(text.endsWith("\n")).toBe(true)
    expect(text.split("\n")).toHaveLength(2)
    const record = JSON.parse(text)
    expect(Object.keys(record)).toEqual(["time", ...Object.keys(line)])
    expect(record).toMatchObject(line)
    expect(new Date(record.time).toISOString()).toBe(record.time)
    expect(text).toBe(`${JSON.stringify({ time: record.time, ...line })}\n`)
  })

  it("keeps an empty line and a line with its own time well-formed", async () => {
    expect(Object.keys(JSON.parse(await logged({})))).toEqual(["time"])
    const own = JSON.parse(await logged({ time: "then", level: "info" }))
    expect(own).toEqual({ time: "then", level: "info" })
  })
})

describe("requestLoggerFor", () => {
  const written = async (format: "json" | "text" | undefined, isTerminal: boolean, line: Readonly<Record<string, string | number>>) => {
    const writes: Array<string> = []
    requestLoggerFor(format, makeLineOutput((chunk) => writes.push(chunk)), isTerminal)(line)
    await new Promise((resolve) => setImmediate(resolve))
    return writes.join("")
  }
  const line = { level: "info", request_id: "req_1", method: "GET", route: "/api/v3/stores/me", status: 200, duration_ms: 1.5, store_id: 7 }

  it("writes JSON when asked, and by default anywhere but a terminal", async () => {
    expect(JSON.parse(await written("json", true, line))).toMatchObject(line)
    expect(JSON.parse(await written(undefined, false, line))).toMatchObject(line)
  })

  it("writes one line of text for people when asked, and by default on a terminal", async () => {
    for (const text of [await written("text", false, line), await written(undefined, true, line)]) {
      expect(text).toMatch(/^\d{4}-\d\d-\d\dT\S+ INFO {2}GET \/api\/v3\/stores\/me 200 1\.5ms req_1 store_id=7\n$/)
    }
  })
})
