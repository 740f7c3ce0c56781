import { defineConfig } from "tsup"

/** The one build of every workspace package: ESM for Node 20 with declarations, from `entry`. */
export const packageBuild = (entry: ReadonlyArray<string>) =>
  defineConfig({
    entry: [...entry],
    format: ["esm"],
    dts: true,
    sourcemap: true,
    clean: true,
    target: "node20",
    tsconfig: "../../tsconfig.build.json"
  })
