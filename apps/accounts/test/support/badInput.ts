import { FastCheck } from "effect"

/**
 * Hostile requests made from the service's own OpenAPI document: for every
 * operation, deep nesting, NUL and control characters in path parameters,
 * query parameters and string fields, overlong UTF-8 and lone surrogates.
 */

type Json = Record<string, unknown>

export interface Operation {
  readonly method: string
  readonly path: string
  readonly pathParams: ReadonlyArray<string>
  readonly queryParams: ReadonlyArray<string>
  /** Media types of the request body, none when the operation takes no body. */
  readonly bodyTypes: ReadonlyArray<string>
  readonly bodySchema: Json | undefined
  readonly responses: Record<string, Json>
}

export interface BadRequest {
  readonly label: string
  readonly operation: Operation
  readonly url: string
  readonly contentType?: string
  readonly body?: Uint8Array
}

const isJson = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

export const operationsOf = (document: Json): ReadonlyArray<Operation> => {
  const operations: Array<Operation> = []
  for (const [path, methods] of Object.entries(document["paths"] as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = (operation["parameters"] ?? []) as Array<{ in: string; name: string }>
      const content = (operation["requestBody"] as { content?: Record<string, { schema?: Json }> } | undefined)?.content
      const bodyTypes = Object.keys(content ?? {})
      operations.push({
        method: method.toUpperCase(),
        path,
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        queryParams: parameters.filter((p) => p.in === "query").map((p) => p.name),
        bodyTypes,
        bodySchema: bodyTypes.map((type) => content?.[type]?.schema).find(isJson),
        responses: operation["responses"] as Record<string, Json>
      })
    }
  }
  return operations
}

/** Resolves `$ref`s against the document's components. */
export const resolver = (document: Json) => (schema: unknown): Json => {
  let current = schema
  for (let hops = 0; isJson(current) && typeof current["$ref"] === "string" && hops < 10; hops++) {
    const name = current["$ref"].split("/").at(-1) ?? ""
    current = ((document["components"] as Json)["schemas"] as Json)[name]
  }
  return isJson(current) ? current : {}
}

/** Percent-encoded values for paths and queries: NUL, controls, overlong UTF-8, encoded surrogates, bad bytes. */
const ENCODED = ["a%00b", "%00", "%01", "%09", "%0D%0A", "%1F", "%7F", "%C2%85", "%C0%80", "%E0%80%80", "%C0%AF", "%ED%A0%80", "%FF", "%"]

/** String values for bodies: NUL, C0 and C1 controls, lone surrogates. */
const STRINGS = ["\u0000", "a\u0000b", "\u0001", "\u001f", "\u007f", "\u0085", "\r\n", "\ud800", "x\udc00", "\u2028"]

/** Raw byte sequences no UTF-8 decoder should accept: overlong NUL and slash, an encoded surrogate, 0xFF. */
const RAW_BYTES = [[0xc0, 0x80], [0xe0, 0x80, 0x80], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff]]

/** A few more, generated with a fixed seed: short strings of any UTF-16 code unit with a control character in them. */
const generated = FastCheck.sample(
  FastCheck.tuple(
    FastCheck.string({ unit: "binary", maxLength: 6 }),
    FastCheck.integer({ min: 0, max: 0x1f }),
    FastCheck.string({ unit: FastCheck.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)), maxLength: 2 })
  ).map(([text, control, surrogates]) => `${text}${String.fromCharCode(control)}${surrogates}`),
  { seed: 12, numRuns: 4 }
)

const percentEncode = (text: string): string =>
  [...Buffer.from(text, "utf8")].map((byte) => `%${byte.toString(16).padStart(2, "0").toUpperCase()}`).join("")

export const ENCODED_VALUES: ReadonlyArray<string> = [...ENCODED, ...generated.map(percentEncode)]
export const STRING_VALUES: ReadonlyArray<string> = [...STRINGS, ...generated]

/** Names sent to bodies that are records of strings (the OAuth endpoints' parameters). */
const RECORD_FIELDS = ["grant_type", "client_id", "client_secret", "code", "redirect_uri", "code_verifier", "refresh_token", "token", "assertion", "scope"]

type Sample = (text: string) => unknown

/** A body for `schema` with `text` in every string field (other fields get a plain valid-looking value). */
const sampler = (resolve: (schema: unknown) => Json) => {
  const sample = (schema: unknown, depth: number): Sample | undefined => {
    const resolved = resolve(schema)
    const members = (resolved["anyOf"] ?? resolved["oneOf"]) as Array<unknown> | undefined
    if (members !== undefined) {
      const samples = members.map((member) => sample(member, depth)).filter((s) => s !== undefined)
      const objects = samples.filter((s) => isJson(s("")))
      return objects[0] ?? samples[0]
    }
    const choices = resolved["enum"]
    if (Array.isArray(choices)) return () => choices[0]
    switch (resolved["type"]) {
      case "string":
        return (text) => text
      case "integer":
      case "number":
        return () => 1
      case "boolean":
        return () => true
      case "array": {
        const item = sample(resolved["items"], depth + 1)
        return item === undefined ? () => [] : (text) => [item(text)]
      }
      case "object":
      case undefined: {
        if (depth > 4) return undefined
        const properties = resolved["properties"]
        if (isJson(properties)) {
          const fields = Object.entries(properties).map(([name, s]) => [name, sample(s, depth + 1)] as const)
          return (text) => Object.fromEntries(fields.filter(([, s]) => s !== undefined).map(([name, s]) => [name, s?.(text)]))
        }
        if (resolved["additionalProperties"] !== undefined) {
          return (text) => Object.fromEntries(RECORD_FIELDS.map((name) => [name, text]))
        }
        return resolved["type"] === "object" ? () => ({}) : undefined
      }
      default:
        return undefined
    }
  }
  return (schema: unknown): Sample => sample(schema, 0) ?? (() => ({}))
}

/** How many values besides NUL each parameter, body or form gets. */
const PER_PLACE = 2

/** The next `count` values of a cyclic list at each call. */
const rotation = <A>(values: ReadonlyArray<A>) => {
  let next = 0
  return (count: number): ReadonlyArray<A> =>
    Array.from({ length: count }, () => values[next++ % values.length]).filter((value) => value !== undefined)
}

const DEPTH = 10_000
const DEEP_BODIES = [
  "[".repeat(DEPTH) + "]".repeat(DEPTH),
  "{\"a\":".repeat(2_000) + "1" + "}".repeat(2_000),
  "{\"x\":" + "[{\"a\":".repeat(2_000) + "null" + "}]".repeat(2_000) + "}"
]

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"))

/** A string field's raw bytes in a JSON body, the JSON written by hand so the bytes stay as they are. */
const rawJsonBody = (fields: ReadonlyArray<string>, bytes: ReadonlyArray<number>): Uint8Array => {
  const names = fields.length === 0 ? ["x"] : fields
  const parts: Array<Buffer> = [Buffer.from("{")]
  names.forEach((name, index) => {
    parts.push(Buffer.from(`${index === 0 ? "" : ","}${JSON.stringify(name)}:"a`), Buffer.from(bytes), Buffer.from("b\""))
  })
  parts.push(Buffer.from("}"))
  return new Uint8Array(Buffer.concat(parts))
}

const stringFieldsOf = (value: unknown): ReadonlyArray<string> =>
  isJson(value) ? Object.entries(value).filter(([, v]) => typeof v === "string").map(([k]) => k) : []

/** Every hostile request for every operation of the document. */
export const badRequests = (document: Json, baseUrl: string): ReadonlyArray<BadRequest> => {
  const resolve = resolver(document)
  const sampleOf = sampler(resolve)
  const requests: Array<BadRequest> = []
  // Each place gets NUL and a few more values, taken in turn, so that the whole run sends every value many times.
  const encoded = rotation(ENCODED_VALUES.slice(1))
  const strings = rotation(STRING_VALUES.slice(1))
  const raw = rotation(RAW_BYTES)
  for (const operation of operationsOf(document)) {
    const pathWith = (bad: Record<string, string>) =>
      operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => bad[name] ?? "x1")
    const plainPath = pathWith({})
    const add = (label: string, init: Omit<BadRequest, "label" | "operation" | "url"> & { url?: string }) =>
      requests.push({ label: `${operation.method} ${operation.path}: ${label}`, operation, url: `${baseUrl}${plainPath}`, ...init })

    for (const name of operation.pathParams) {
      for (const value of ["a%00b", ...encoded(PER_PLACE)]) add(`path ${name}=${value}`, { url: `${baseUrl}${pathWith({ [name]: value })}` })
    }
    for (const name of operation.queryParams) {
      for (const value of ["a%00b", ...encoded(PER_PLACE)]) add(`query ${name}=${value}`, { url: `${baseUrl}${plainPath}?${name}=${value}` })
    }
    for (const value of encoded(1)) add(`query undeclared=${value}`, { url: `${baseUrl}${plainPath}?undeclared=${value}` })
    if (operation.bodyTypes.length === 0 && operation.method !== "GET") {
      add("deep JSON to a route without a body", { contentType: "application/json", body: utf8(DEEP_BODIES[0] ?? "") })
    }
    if (operation.bodyTypes.includes("application/json")) {
      const sample = sampleOf(operation.bodySchema)
      for (const deep of DEEP_BODIES) {
        add(`deep JSON ${deep.slice(0, 6)}…`, { contentType: "application/json", body: utf8(deep) })
      }
      for (const value of ["\u0000", ...strings(PER_PLACE)]) {
        add(`JSON strings ${JSON.stringify(value)}`, { contentType: "application/json", body: utf8(JSON.stringify(sample(value))) })
      }
      const fields = stringFieldsOf(sample("x"))
      for (const field of fields) {
        add(`JSON ${field}="\\u0000" alone`, { contentType: "application/json", body: utf8(JSON.stringify({ [field]: "a\u0000" })) })
      }
      for (const bytes of raw(2)) {
        add(`JSON raw bytes ${bytes.join(",")}`, { contentType: "application/json", body: rawJsonBody(fields, bytes) })
      }
      add("JSON lone surrogate escapes", { contentType: "application/json", body: utf8(JSON.stringify(sample("\ud83d")).replace(/\ud83d/g, "\\ud83d")) })
    }
    if (operation.bodyTypes.includes("application/x-www-form-urlencoded")) {
      const fields = stringFieldsOf(sampleOf(operation.bodySchema)("x"))
      const names = fields.length === 0 ? RECORD_FIELDS : fields
      for (const value of ["a%00b", ...encoded(PER_PLACE)]) {
        add(`form ${value}`, {
          contentType: "application/x-www-form-urlencoded",
          body: utf8(names.map((name) => `${name}=${value}`).join("&"))
        })
      }
    }
  }
  return requests
}
