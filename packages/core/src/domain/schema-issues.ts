import type { SchemaIssue } from "effect"
import type { FieldError } from "./field-error.js"

/** A path into a JSON document, as JSON Pointer segments. */
export type IssuePath = ReadonlyArray<string | number>

/**
 * Renders the issues a caller words itself. Return `true` when the issue is handled (its
 * faults emitted, or `descend` called on its children); `false` lets the walker descend.
 */
export type IssueVisitor = (
  issue: SchemaIssue.Issue,
  path: IssuePath,
  emit: (fault: FieldError) => void,
  descend: (child: SchemaIssue.Issue, childPath?: IssuePath) => void
) => boolean

const segment = (key: PropertyKey): string | number => (typeof key === "symbol" ? key.toString() : key)

/**
 * Walks an Effect schema issue tree once, carrying the JSON path, so that every fault a
 * visitor renders points at the offending member. One traversal for every surface (HTTP
 * decoding, order translators, the pricing validator); each words its faults its own way.
 */
export const collectFieldErrors = (
  issue: SchemaIssue.Issue,
  visit: IssueVisitor,
  basePath: IssuePath = []
): Array<FieldError> => {
  const out: Array<FieldError> = []
  const emit = (fault: FieldError) => {
    out.push(fault)
  }
  const walk = (node: SchemaIssue.Issue, path: IssuePath): void => {
    if (visit(node, path, emit, (child, childPath) => walk(child, childPath ?? path))) return
    switch (node._tag) {
      case "Pointer":
        walk(node.issue, [...path, ...node.path.map(segment)])
        return
      case "Composite":
      case "AnyOf":
        for (const child of node.issues) walk(child, path)
        return
      case "Encoding":
      case "Filter":
        walk(node.issue, path)
        return
      default:
        return
    }
  }
  walk(issue, basePath)
  return out
}
