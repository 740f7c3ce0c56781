import { Context, Effect, Layer, Redacted } from "effect"
import { createHash } from "node:crypto"
import { type Keyring, open, parseKeyring, seal, secretKeyOf } from "../../domain/credentials/secret-box.js"
import { Settings } from "../settings.js"

// Development and test without SECRETS_KEY: a fixed key, so their data stays readable across
// restarts. It protects nothing, and the server says so when it starts; production refuses it.
const DERIVED_KEYRING: Keyring = [secretKeyOf(createHash("sha256").update("signcraft development and test secrets key").digest())]

/** Seals secrets before they are stored and opens them where they are used (docs/security.md). */
export class SecretBox extends Context.Service<SecretBox, {
  readonly seal: (plaintext: string) => string
  /** Opens a sealed value (plaintext from before sealing passes through). */
  readonly open: (stored: string) => string
  /** Whether the key was derived because `SECRETS_KEY` is unset (development and test only). */
  readonly derived: boolean
}>()("signcraft/SecretBox") {
  static readonly layer = Layer.effect(
    SecretBox,
    Effect.gen(function*() {
      const settings = yield* Settings
      const configured = settings.secretsKey === undefined ? undefined : parseKeyring(Redacted.value(settings.secretsKey))
      if (configured !== undefined && "fault" in configured) {
        return yield* Effect.die(new Error(`SECRETS_KEY must be ${configured.fault}`))
      }
      if (configured === undefined && settings.environment === "production") {
        return yield* Effect.die(new Error("SECRETS_KEY must be set in production"))
      }
      const keyring = configured ?? DERIVED_KEYRING
      return SecretBox.of({
        seal: (plaintext) => seal(keyring, plaintext),
        open: (stored) => open(keyring, stored),
        derived: configured === undefined
      })
    })
  )
}
