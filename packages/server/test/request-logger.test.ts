import { describe, expect, it } from "vitest"
import { makeLineOutput } from "../src/log-output.js"
import { requestLogger } from "../src/serve.js"

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
