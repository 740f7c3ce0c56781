import { defineConfig, type Options } from "tsup"

/**
 * The one build of every workspace package: ESM for Node 20 with declarations, from `entry`;
 * `overrides` for what one package does differently (the client bundles the API definition).
 */
export const packageBuild = (entry: ReadonlyArray<string>, overrides: Options = {}) =>
  defineConfig({
    entry: [...entry],
    format: ["esm"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
    tsconfig: "../../tsconfig.build.json",
    ...overrides
  })
