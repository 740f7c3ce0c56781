import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { databaseVariants, type TestDatabase } from "@signcraft/test-kit"
import { FUZZ_ENTRIES } from "./catalogue.js"
import { ALWAYS } from "./mutations.js"
import { type EntryStats, fuzzEntry, fuzzSettings, send, validFault } from "./runner.js"
import { startFuzzWorld, type FuzzWorld } from "./world.js"

const settings = fuzzSettings()

const statsTable = (database: string, stats: ReadonlyArray<EntryStats>) => {
  const classes = ["2xx", "3xx", "4xx", "5xx"]
  const rows = stats.map((s) => [s.entry, String(s.bodies), ...classes.map((c) => String(s.byClass[c] ?? 0)), String(s.findings.length)])
  const header = ["endpoint", "bodies", ...classes, "faults"]
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join("  ")
  const total = stats.reduce((sum, s) => sum + s.bodies, 0)
  return [`fuzz (${database} database, seed ${settings.seed}, ${ALWAYS.length} structural and ${settings.runs} generated bodies per endpoint, ${total} in all)`, line(header), ...rows.map(line)].join("\n")
}

const findingsList = (stats: ReadonlyArray<EntryStats>) => {
  const distinct = new Map<string, string>()
  for (const finding of stats.flatMap((s) => s.findings)) {
    distinct.set(`${finding.entry} | ${finding.mutation} | ${finding.fault}`, `${finding.entry}\n    ${finding.mutation}\n    -> ${finding.status}: ${finding.fault}`)
  }
  return distinct.size === 0 ? "no faults" : `${distinct.size} faults:\n  ${[...distinct.values()].join("\n  ")}`
}

describe.each(databaseVariants())("property-based fuzzing of every write ($name database)", (variant) => {
  let db: TestDatabase
  let world: FuzzWorld
  const stats: Array<EntryStats> = []

  beforeAll(async () => {
    db = await variant.create()
    world = await startFuzzWorld(db.config)
  })
  afterAll(async () => {
    if (settings.report) console.log(`${statsTable(variant.name, stats)}\n${findingsList(stats)}`)
    await world.dispose()
    await db.cleanup()
  })

  for (const entry of FUZZ_ENTRIES) {
    it(`${entry.name}: no 5xx, the generation's error format, and the valid request still succeeds`, async () => {
      const result = await fuzzEntry(world, entry, settings)
      stats.push(result)
      // One valid request afterwards: a valid body that is wrong, or a service the spoiled bodies broke, fails here.
      expect(validFault(entry, await send(world, entry, await entry.prepare(world, "valid")))).toBeUndefined()
      expect(result.findings).toEqual([])
    })
  }
})
