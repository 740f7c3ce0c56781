import { Layer, Tracer } from "effect"

/** The SQL statements an app runs, as its statement spans report them, and the layer that records them. */
export interface StatementRecorder {
  /** The text of every statement since the last {@link clear}, in the order they ran. */
  readonly statements: () => ReadonlyArray<string>
  readonly clear: () => void
  /** Provides the recording tracer to whatever the layer is merged into (an app's database layer, say). */
  readonly layer: Layer.Layer<never>
}

/** Records the statements an app runs: every statement's span carries its text. */
export const statementRecorder = (): StatementRecorder => {
  let statements: Array<string> = []
  class RecordingSpan extends Tracer.NativeSpan {
    override attribute(key: string, value: unknown): void {
      super.attribute(key, value)
      if (key === "db.query.text" && typeof value === "string") statements.push(value.replace(/\s+/g, " ").trim())
    }
  }
  const tracer = Tracer.make({ span: (options) => new RecordingSpan(options) })
  return {
    statements: () => statements,
    clear: () => {
      statements = []
    },
    layer: Layer.succeed(Tracer.Tracer, tracer)
  }
}
