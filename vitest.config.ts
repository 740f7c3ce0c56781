import { defineConfig } from "vitest/config"

// PGlite takes seconds and hundreds of MB to start: cap the workers and give hooks room.
export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 120_000
  }
})
