import { defineConfig } from "vitest/config"

// PGlite takes seconds and hundreds of MB to start: cap the workers and give hooks and first
// requests (which boot and migrate the database) room on a loaded, shared machine.
export default defineConfig({
  test: {
    include: ["packages/*/test/**/*.test.ts", "test/**/*.test.ts", "examples/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
