import { defineConfig } from "vitest/config"
import base from "./vitest.config.js"

// `npm run fuzz`: the fuzz suite alone, with many more generated bodies per endpoint than CI
// sends, and a table of what each endpoint received and answered. FUZZ_RUNS and FUZZ_SEED
// set in the environment win. (Spread, not mergeConfig: that would append to `include`.)
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["packages/core/test/fuzz/fuzz.test.ts"],
    env: {
      FUZZ_RUNS: process.env.FUZZ_RUNS ?? "200",
      FUZZ_SEED: process.env.FUZZ_SEED ?? "20261123",
      FUZZ_REPORT: "1"
    },
    testTimeout: 900_000
  }
})
