import type { ServiceSettings } from "@signcraft/core"
import { embeddedVariant, startApp } from "@signcraft/test-kit"
import type { Layer } from "effect"

export { OPERATOR_TOKEN } from "@signcraft/test-kit"

/** The body limit of the test apps, small so a streamed oversized body is cheap to send. */
export const MAX_BODY_BYTES = 64 * 1024

/** The test kit's app over a fresh embedded database of its own, with the small body limit; `dispose` throws both away. */
export const startSigncraft = async (
  overrides: Partial<ServiceSettings> = {},
  /** Replaces services of the app, e.g. a test clock (`adjustableClock().layer`). */
  extra?: Layer.Layer<never>
) => {
  const db = await embeddedVariant.create()
  const app = startApp(db.config, { maxBodyBytes: MAX_BODY_BYTES, ...overrides }, {}, extra === undefined ? {} : { layer: extra })
  return {
    ...app,
    dispose: async () => {
      await app.dispose()
      await db.cleanup()
    }
  }
}
