/**
 * @signcraft/adapters: mount the signcraft web handler in a host server. The core is a
 * web-standard `(Request) => Promise<Response>`; each adapter only converts to and from it.
 */
export { toNodeListener, type WebHandler } from "./node.js"
