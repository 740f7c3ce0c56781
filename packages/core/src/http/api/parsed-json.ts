import { Schema, type SchemaAST } from "effect"
import { HttpApi, type HttpApiGroup } from "effect/http-api"

const DOCUMENTED_AS = "signcraft/documentedAs"

/**
 * A JSON value handed to the handler exactly as parsed, for bodies a domain validator checks
 * itself (pricing documents): only the validator knows the stored customiser (read-only guards,
 * model consistency) and it reports every fault of a document in one answer. `Schema.Unknown`
 * would not do: its JSON codec checks that the whole body is a JSON value, so a number
 * JSON.parse turned into ±Infinity (`1e400`) was refused with one fault at the root. Passed on,
 * the number reaches the validator, which names its field (docs/input-handling.md).
 *
 * `documentedAs` is the schema that validator enforces (the compiled validators are held equal
 * to it by property tests); the OpenAPI document shows it as the body under `identifier`.
 */
export const parsedJson = (identifier: string, documentedAs: Schema.Top) =>
  Schema.declare((_input: unknown): _input is unknown => true, {
    identifier,
    // Already JSON: JSON.parse produced it, so there is nothing to encode or check.
    toCodecJson: () => undefined,
    [DOCUMENTED_AS]: documentedAs
  })

// Every parsed-JSON declaration in a payload schema, nested members included.
const collectDocumented = (root: SchemaAST.AST, found: Map<string, Schema.Top>): void => {
  const pending: Array<SchemaAST.AST> = [root]
  for (let ast = pending.pop(); ast !== undefined; ast = pending.pop()) {
    const documented = ast.annotations?.[DOCUMENTED_AS]
    const identifier = ast.annotations?.identifier
    if (Schema.isSchema(documented) && typeof identifier === "string") found.set(identifier, documented)
    if (ast._tag === "Objects") pending.push(...ast.propertySignatures.map((property) => property.type))
    else if (ast._tag === "Union") pending.push(...ast.types)
  }
}

/** The payloads of an API checked by a domain validator: component name → the schema it enforces. */
export const documentedPayloads = <Id extends string, Groups extends HttpApiGroup.Constraint>(
  api: HttpApi.HttpApi<Id, Groups>
): ReadonlyMap<string, Schema.Top> => {
  const found = new Map<string, Schema.Top>()
  HttpApi.reflect(api, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      for (const { schemas } of endpoint.payload.values()) {
        for (const schema of schemas) collectDocumented(schema.ast, found)
      }
    }
  })
  return found
}
