import { Effect, Layer } from "effect"
import type * as Embedded from "./embedded.js"

/**
 * The embedded database layer of `./embedded.js`, whose module (and PGlite with it) is loaded
 * only when the layer is built, so a process on PostgreSQL never loads PGlite.
 */
export const layerEmbedded = (
  ...args: Parameters<typeof Embedded.layerEmbedded>
): ReturnType<typeof Embedded.layerEmbedded> =>
  Layer.unwrap(Effect.map(Effect.promise(() => import("./embedded.js")), (embedded) => embedded.layerEmbedded(...args)))
