import { Layer, Redacted } from "effect"
import { makeWebHandler } from "../../../core/src/app.js"
import { defaultSettings, type ServiceSettings } from "../../../core/src/services/settings.js"
import { layerDatabase } from "../../../core/src/storage/database.js"
import { embeddedVariant, type TestDatabase } from "../../../../test/support/databases.js"

/** The operator token of the embedded test apps. */
export const OPERATOR_TOKEN = "op_adapter_token"

/** The body limit of the test apps, small so a streamed oversized body is cheap to send. */
export const MAX_BODY_BYTES = 64 * 1024

/** The real signcraft web handler over a fresh embedded database, and how to throw both away. */
export const startSigncraft = async (
  overrides: Partial<ServiceSettings> = {},
  /** Replaces services of the app, e.g. a test clock (`adjustableClock().layer`). */
  extra: Layer.Layer<never> = Layer.empty
) => {
  const db: TestDatabase = await embeddedVariant.create()
  const settings = defaultSettings({
    environment: "test",
    operatorToken: Redacted.make(OPERATOR_TOKEN),
    maxBodyBytes: MAX_BODY_BYTES,
    ...overrides
  })
  const app = makeWebHandler({ settings }, Layer.merge(layerDatabase(db.config), extra))
  return {
    handler: app.handler,
    dispose: async () => {
      await app.dispose()
      await db.cleanup()
    }
  }
}
