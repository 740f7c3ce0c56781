import { Layer, Option, Tracer } from "effect"

/** The SQL statements an app runs, as its statement spans report them, and the layer that records them. */
export interface StatementRecorder {
  /** The text of every statement since the last {@link clear}, in the order they ran. */
  readonly statements: () => ReadonlyArray<string>
  /**
   * The statements since the last {@link clear} that ran for an HTTP request (under a server
   * span), without the app's background work (its queues, pruning, housekeeping).
   */
  readonly requestStatements: () => ReadonlyArray<string>
  readonly clear: () => void
  /** Provides the recording tracer to whatever the layer is merged into (an app's database layer, say). */
  readonly layer: Layer.Layer<never>
}

// Whether `span` or one of its ancestors is the span of a request the server received.
const underServerSpan = (span: Tracer.AnySpan): boolean =>
  span._tag === "Span" && (span.kind === "server" || Option.match(span.parent, { onNone: () => false, onSome: underServerSpan }))

/** Records the statements an app runs: every statement's span carries its text. */
export const statementRecorder = (): StatementRecorder => {
  let recorded: Array<{ readonly text: string; readonly forRequest: boolean }> = []
  class RecordingSpan extends Tracer.NativeSpan {
    override attribute(key: string, value: unknown): void {
      super.attribute(key, value)
      if (key === "db.query.text" && typeof value === "string") {
        recorded.push({ text: value.replace(/\s+/g, " ").trim(), forRequest: underServerSpan(this) })
      }
    }
  }
  const tracer = Tracer.make({ span: (options) => new RecordingSpan(options) })
  return {
    statements: () => recorded.map((statement) => statement.text),
    requestStatements: () => recorded.filter((statement) => statement.forRequest).map((statement) => statement.text),
    clear: () => {
      recorded = []
    },
    layer: Layer.succeed(Tracer.Tracer, tracer)
  }
}
