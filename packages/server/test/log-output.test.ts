import { describe, expect, it } from "vitest"
import { makeLineOutput } from "../src/log-output.js"

describe("makeLineOutput", () => {
  it("batches lines into one write per turn of the event loop", async () => {
    const writes: Array<string> = []
    const output = makeLineOutput((chunk) => writes.push(chunk))
    output.json({ a: 1 })
    output.json({ b: "two" })
    output.text("plain", "lines")
    expect(writes).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(writes).toEqual([`{"a":1}\n{"b":"two"}\nplain\nlines\n`])
  })

  it("flushes on demand and when the buffer grows large", () => {
    const writes: Array<string> = []
    const output = makeLineOutput((chunk) => writes.push(chunk))
    output.text("x")
    output.flush()
    expect(writes).toEqual(["x\n"])
    output.text("y".repeat(70_000))
    expect(writes).toHaveLength(2)
    output.flush()
    expect(writes).toHaveLength(2)
  })
})
