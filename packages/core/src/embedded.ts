/** @signcraft/core/embedded: the embedded database (PGlite) storage layer on its own. */
export { layerEmbedded, type EmbeddedLocation, type EmbeddedOptions } from "./storage/embedded.js"
