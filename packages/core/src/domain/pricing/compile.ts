import { type Schema, SchemaAST, SchemaIssue } from "effect"
import type { FieldError } from "../input/field-error.js"
import { predicateOf } from "./checks.js"
import { issueToFieldErrors } from "../input/schema-issues.js"

/**
 * Compiles an Effect schema into a fast validating decoder that reports every fault as a
 * FieldError.
 *
 * Why: Effect's decoder is too slow for large documents (its per-field cost puts a 2,000-row price
 * list far over the 5 ms validation target; bench/RESULTS.md), and its JIT is unstable API. This walker reads the schema's AST and
 * reuses its checks (`Filter.run`) and its issue types, so the schema stays the single source of
 * truth and faults come out exactly as `issueToFieldErrors` renders Effect's own issues. An
 * agreement property test holds the two decoders to the same verdict, output and faults on JSON input.
 *
 * Scope: the node kinds the pricing schemas use, with no transformations: String, Number, Boolean,
 * Null, Literal, Objects (properties, or one string-keyed index signature), Arrays (a single rest
 * element) and Union. Anything else is refused when compiling, at module load, never while
 * validating input. Members are read as Effect reads them (a member sent as `undefined` is present
 * and of the wrong type); parsed JSON has no inherited members, so nothing else differs. Undeclared
 * members are dropped, or refused one fault each under `onExcessProperty: "error"`, as Effect does
 * with the same parse option.
 */

/** Outcome of a compiled decode: the decoded value (undeclared members dropped) or every fault. */
export type Decoded<A> =
  | { readonly ok: true; readonly value: A }
  | { readonly ok: false; readonly errors: ReadonlyArray<FieldError> }

/** A compiled decoder. */
export type CompiledDecoder<A> = (input: unknown) => Decoded<A>

/** How a compiled decoder treats members its schema does not declare (Effect's parse option of the same name). */
export interface CompileOptions {
  readonly onExcessProperty?: "ignore" | "error"
}

type PathStack = Array<string | number>

const INVALID: unique symbol = Symbol("invalid")
type Step = (input: unknown, path: PathStack, faults: Array<FieldError>) => unknown

const PARSE_OPTIONS: SchemaAST.ParseOptions = { errors: "all" }

const report = (issue: SchemaIssue.Issue, path: PathStack, faults: Array<FieldError>): typeof INVALID => {
  faults.push(...issueToFieldErrors(issue, path))
  return INVALID
}

const isJsonObject = (input: unknown): input is { readonly [key: string]: unknown } =>
  typeof input === "object" && input !== null && !Array.isArray(input)

// "__proto__" arrives as an ordinary member of parsed JSON; assignment would set the prototype instead.
const defineMember = (target: Record<string, unknown>, key: string, value: unknown): void => {
  if (key === "__proto__") Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
  else target[key] = value
}

const unsupported = (ast: SchemaAST.AST, reason: string): Error =>
  new Error(`compileDecoder: unsupported schema node ${ast._tag} (${reason})`)

const flattenChecks = (checks: ReadonlyArray<SchemaAST.Check<unknown>>): ReadonlyArray<SchemaAST.Filter<unknown>> =>
  checks.flatMap((check) => (check._tag === "Filter" ? [check] : flattenChecks(check.checks)))

/** Whether a union member could accept the input's runtime type (Effect's candidate selection). */
const acceptsTypeOf = (ast: SchemaAST.AST): ((input: unknown) => boolean) => {
  switch (ast._tag) {
    case "String":
      return (input) => typeof input === "string"
    case "Number":
      return (input) => typeof input === "number"
    case "Boolean":
      return (input) => typeof input === "boolean"
    case "Null":
      return (input) => input === null
    case "Literal":
      return (input) => input === ast.literal
    case "Objects":
      return isJsonObject
    case "Arrays":
      return Array.isArray
    case "Union": {
      const members = ast.types.map(acceptsTypeOf)
      return (input) => members.some((accepts) => accepts(input))
    }
    default:
      throw unsupported(ast, "not a union member this compiler knows")
  }
}

const compileObjects = (ast: SchemaAST.Objects, options: CompileOptions): Step => {
  const [index, ...moreIndexes] = ast.indexSignatures
  if (moreIndexes.length > 0) throw unsupported(ast, "several index signatures")
  if (index !== undefined && ast.propertySignatures.length > 0) throw unsupported(ast, "properties with an index signature")
  if (index !== undefined) {
    if (index.parameter._tag !== "String" || index.parameter.checks !== undefined)
      throw unsupported(ast, "index keys other than plain strings")
    const value = compileNode(index.type, options)
    return (input, path, faults) => {
      if (!isJsonObject(input)) return report(new SchemaIssue.InvalidType(ast), path, faults)
      const output: Record<string, unknown> = {}
      let ok = true
      for (const key of Object.keys(input)) {
        path.push(key)
        const decoded = value(input[key], path, faults)
        path.pop()
        if (decoded === INVALID) ok = false
        else if (ok) defineMember(output, key, decoded)
      }
      return ok ? output : INVALID
    }
  }
  if (ast.propertySignatures.length === 0) throw unsupported(ast, "no properties")
  const members = ast.propertySignatures.map((signature) => {
    if (typeof signature.name !== "string") throw unsupported(ast, "non-string property names")
    return {
      name: signature.name,
      optional: SchemaAST.isOptional(signature.type),
      annotations: signature.type.context?.annotations,
      step: compileNode(signature.type, options)
    }
  })
  const declared = new Set(members.map((member) => member.name))
  const refuseExcess = options.onExcessProperty === "error"
  return (input, path, faults) => {
    if (!isJsonObject(input)) return report(new SchemaIssue.InvalidType(ast), path, faults)
    const output: Record<string, unknown> = {}
    let ok = true
    if (refuseExcess) {
      for (const key of Object.keys(input)) {
        if (declared.has(key)) continue
        path.push(key)
        report(new SchemaIssue.UnexpectedKey(ast), path, faults)
        path.pop()
        ok = false
      }
    }
    for (const member of members) {
      // One property read in the common case; `hasOwn` only settles whether an undefined was sent.
      const value = input[member.name]
      if (value === undefined && !Object.hasOwn(input, member.name)) {
        if (member.optional) continue
        path.push(member.name)
        report(new SchemaIssue.MissingKey(member.annotations), path, faults)
        path.pop()
        ok = false
        continue
      }
      path.push(member.name)
      const decoded = member.step(value, path, faults)
      path.pop()
      if (decoded === INVALID) ok = false
      else if (ok) defineMember(output, member.name, decoded)
    }
    return ok ? output : INVALID
  }
}

const compileArrays = (ast: SchemaAST.Arrays, options: CompileOptions): Step => {
  const [rest, ...more] = ast.rest
  if (ast.elements.length > 0 || rest === undefined || more.length > 0) throw unsupported(ast, "tuples")
  const element = compileNode(rest, options)
  return (input, path, faults) => {
    if (!Array.isArray(input)) return report(new SchemaIssue.InvalidType(ast), path, faults)
    const output: Array<unknown> = []
    let ok = true
    for (let index = 0; index < input.length; index++) {
      path.push(index)
      const decoded = element(input[index], path, faults)
      path.pop()
      if (decoded === INVALID) ok = false
      else if (ok) output.push(decoded)
    }
    return ok ? output : INVALID
  }
}

// `NullOr(X)` is most of a pricing document: settle null and type mismatches without the general loop.
const compileNullable = (ast: SchemaAST.Union, member: SchemaAST.AST, options: CompileOptions): Step => {
  const accepts = acceptsTypeOf(member)
  const step = compileNode(member, options)
  return (input, path, faults) => {
    if (input === null) return null
    return accepts(input) ? step(input, path, faults) : report(new SchemaIssue.AnyOf(ast, []), path, faults)
  }
}

const compileUnion = (ast: SchemaAST.Union, options: CompileOptions): Step => {
  if (ast.options?.mode === "oneOf") throw unsupported(ast, "oneOf unions")
  const [first, second, ...others] = ast.types
  if (first !== undefined && second?._tag === "Null" && second.checks === undefined && others.length === 0) {
    return compileNullable(ast, first, options)
  }
  const members = ast.types.map((member) => ({ accepts: acceptsTypeOf(member), step: compileNode(member, options) }))
  return (input, path, faults) => {
    // Faults of a member that fails are kept only if no later member succeeds: roll back to `mark`.
    const mark = faults.length
    let tried = false
    for (const member of members) {
      if (!member.accepts(input)) continue
      tried = true
      const decoded = member.step(input, path, faults)
      if (decoded !== INVALID) {
        if (faults.length > mark) faults.length = mark
        return decoded
      }
    }
    return tried ? INVALID : report(new SchemaIssue.AnyOf(ast, []), path, faults)
  }
}

const compileLeaf = (ast: SchemaAST.AST): Step => {
  // One closure per primitive kind, with the type test inline: these run once per field.
  switch (ast._tag) {
    case "String":
      return (input, path, faults) =>
        typeof input === "string" ? input : report(new SchemaIssue.InvalidType(ast), path, faults)
    case "Number":
      return (input, path, faults) =>
        typeof input === "number" ? input : report(new SchemaIssue.InvalidType(ast), path, faults)
    case "Boolean":
      return (input, path, faults) =>
        typeof input === "boolean" ? input : report(new SchemaIssue.InvalidType(ast), path, faults)
    case "Null":
      return (input, path, faults) => (input === null ? input : report(new SchemaIssue.InvalidType(ast), path, faults))
    default:
      throw unsupported(ast, "not a primitive")
  }
}

const compileBase = (ast: SchemaAST.AST, options: CompileOptions): Step => {
  switch (ast._tag) {
    case "String":
    case "Number":
    case "Boolean":
    case "Null":
      return compileLeaf(ast)
    case "Literal":
      return (input, path, faults) =>
        input === ast.literal ? input : report(new SchemaIssue.InvalidType(ast), path, faults)
    case "Objects":
      return compileObjects(ast, options)
    case "Arrays":
      return compileArrays(ast, options)
    case "Union":
      return compileUnion(ast, options)
    default:
      throw unsupported(ast, "node kind")
  }
}

// Checks run on a value whose structure already decoded, in order; an aborting check that fails stops the rest.
const compileNode = (ast: SchemaAST.AST, options: CompileOptions): Step => {
  if (ast.encoding !== undefined) throw unsupported(ast, "transformations")
  const base = compileBase(ast, options)
  if (ast.checks === undefined) return base
  const checks = flattenChecks(ast.checks).map((filter) => ({ filter, passes: predicateOf(filter) }))
  return (input, path, faults) => {
    const decoded = base(input, path, faults)
    if (decoded === INVALID) return INVALID
    let ok = true
    for (const check of checks) {
      // The plain predicate answers the common case; the filter itself builds the issue on failure.
      if (check.passes?.(decoded) === true) continue
      const issue = check.filter.run(decoded, ast, PARSE_OPTIONS)
      if (issue === undefined) continue
      report(new SchemaIssue.Filter(check.filter, issue), path, faults)
      ok = false
      if (check.filter.aborted) break
    }
    return ok ? decoded : INVALID
  }
}

/**
 * Compiles `schema` once (throws if it uses a node kind outside the scope above); the returned
 * decoder never throws on input.
 */
export const compileDecoder = <S extends Schema.Top>(schema: S, options: CompileOptions = {}): CompiledDecoder<S["Type"]> => {
  const step = compileNode(schema.ast, options)
  return (input) => {
    const faults: Array<FieldError> = []
    // The walker builds exactly what the schema describes (held to Effect's decoder by the agreement test).
    const decoded = step(input, [], faults) as S["Type"] | typeof INVALID
    return decoded === INVALID || faults.length > 0 ? { ok: false, errors: faults } : { ok: true, value: decoded }
  }
}
