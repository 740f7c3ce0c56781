import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

const packagesDir = fileURLToPath(new URL("./packages/", import.meta.url))

// PGlite takes seconds and hundreds of MB to start: cap the workers and give hooks and first
// requests (which boot and migrate the database) room on a loaded, shared machine.
export default defineConfig({
  resolve: {
    // Tests run the workspace packages' TypeScript source, never a build: a fresh clone
    // passes `npm install && npm test`, and what is tested is what is being edited.
    alias: [
      { find: /^@signcraft\/(core|adapters|server|client|test-kit)$/, replacement: `${packagesDir}$1/src/index.ts` },
      // Subpath exports (`@signcraft/core/domain`, `@signcraft/client/effect`) are each one file of src.
      { find: /^@signcraft\/(core|adapters|server|client|test-kit)\/([a-z-]+)$/, replacement: `${packagesDir}$1/src/$2.ts` }
    ]
  },
  test: {
    include: ["packages/*/test/**/*.test.ts", "examples/**/*.test.ts", "bench/test/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000
  }
})
