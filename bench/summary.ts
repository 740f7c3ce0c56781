/**
 * The run's closing markdown summary: each benchmark process appends its table to the file
 * bench/run.ts names in BENCH_SUMMARY_FILE, and run.ts prints them together at the end.
 */
import { appendFileSync } from "node:fs"

/** Appends a markdown fragment to the run's summary, when a run collects one. */
export const appendSummary = (markdown: string): void => {
  const file = process.env.BENCH_SUMMARY_FILE
  if (file !== undefined && file !== "") appendFileSync(file, `${markdown}\n\n`)
}
