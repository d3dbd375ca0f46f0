import type { HttpApiSchema, HttpServerRequest } from "@effect/platform"
import type { ApiErrorInstance } from "./ApiError.ts"
import { mediaTypeOf } from "./ContentType.ts"
import { InvalidBody, InvalidContentType, InvalidJson, PayloadTooLarge, UnsupportedMediaType, ValidationFailed } from "./errors.ts"
import { jsonNestsDeeperThan, MAX_JSON_DEPTH } from "./JsonLimits.ts"
import type { BodyRead } from "./RequestBody.ts"
import type { Route } from "./RouteTable.ts"
import { jsonTextProblems, textProblem } from "./TextRules.ts"

/** A body the route takes (its bytes, and its JSON when it is JSON), or why it is refused. */
export type CheckedBody =
  | { readonly _tag: "Ready"; readonly bytes: Buffer; readonly json: unknown }
  | Refused

export interface Refused {
  readonly _tag: "Refused"
  readonly error: ApiErrorInstance
  /** The rest of the body was left unread: the connection closes after the answer. */
  readonly closeConnection: boolean
}

const refused = (error: ApiErrorInstance): Refused => ({ _tag: "Refused", closeConnection: false, error })

type MediaTypeChecked =
  | { readonly _tag: "Accepted"; readonly kind: HttpApiSchema.Encoding["kind"] }
  | Refused

/** The body's media type is one the route takes (an empty body may omit it). */
const mediaTypeCheck = (
  request: HttpServerRequest.HttpServerRequest,
  route: Route,
  empty: boolean
): MediaTypeChecked => {
  const expected = [...route.bodyTypes.keys()]
  const header = request.headers["content-type"]
  if (header === undefined && !empty) {
    return refused(
      new InvalidContentType({
        message: `A request body needs a Content-Type header (${expected.join(" or ")}).`,
        details: { expected }
      })
    )
  }
  const mediaType = header === undefined ? expected[0]! : mediaTypeOf(header)
  if (mediaType === undefined) {
    return refused(new InvalidContentType({ message: "The Content-Type header is not a valid media type.", details: { expected } }))
  }
  const kind = route.bodyTypes.get(mediaType)
  if (kind === undefined) {
    return refused(
      new UnsupportedMediaType({
        message: `This route does not take ${mediaType}; send ${expected.join(" or ")}.`,
        details: { received: mediaType, expected }
      })
    )
  }
  return { _tag: "Accepted", kind }
}

const tooLarge = (route: Route): Refused => ({
  _tag: "Refused",
  closeConnection: true,
  error: new PayloadTooLarge({
    message: `The request body is larger than this route's limit of ${route.maxBodyBytes} bytes.`,
    details: { limit_bytes: route.maxBodyBytes }
  })
})

/**
 * A streamed body (StreamedBody) is left unread for its handler: only a declared size over the
 * limit and the media type are checked. Undefined when both pass.
 */
export const checkStreamedBody = (request: HttpServerRequest.HttpServerRequest, route: Route): Refused | undefined => {
  const declared = Number(request.headers["content-length"])
  if (Number.isFinite(declared) && declared > route.maxBodyBytes) return tooLarge(route)
  const media = mediaTypeCheck(request, route, declared === 0)
  return media._tag === "Refused" ? media : undefined
}

/** Checks the body read for a route that takes one: size, media type, JSON syntax and depth, text rules. */
export const checkBody = (request: HttpServerRequest.HttpServerRequest, route: Route, read: BodyRead): CheckedBody => {
  if (read._tag !== "Read") return tooLarge(route)
  const empty = read.bytes.length === 0
  const media = mediaTypeCheck(request, route, empty)
  if (media._tag === "Refused") return media
  if (media.kind !== "Json") {
    const problems = media.kind === "UrlParams" ? formTextProblems(read.bytes.toString("utf8")) : {}
    // Without a Content-Type the router reads the body as JSON: an empty form is then no parameters.
    const json = media.kind === "UrlParams" && empty ? {} : undefined
    return Object.keys(problems).length > 0 ? invalidText(problems) : { _tag: "Ready", bytes: read.bytes, json }
  }
  // An empty JSON body counts as an empty object.
  const bytes = empty ? Buffer.from("{}") : read.bytes
  const text = bytes.toString("utf8")
  if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
    return refused(new InvalidJson({ message: `The request body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.` }))
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    return refused(new InvalidJson({ message: "The request body is not valid JSON." }))
  }
  if (route.jsonObjectBody && (json === null || typeof json !== "object" || Array.isArray(json))) {
    return refused(new InvalidBody({ message: "The request body must be a JSON object." }))
  }
  const problems = jsonTextProblems(json)
  return Object.keys(problems).length > 0 ? invalidText(problems) : { _tag: "Ready", bytes, json }
}

const formTextProblems = (text: string): Record<string, string> => {
  const problems: Record<string, string> = {}
  for (const [name, value] of new URLSearchParams(text)) {
    const problem = textProblem(name) ?? textProblem(value)
    if (problem !== undefined && !(name in problems)) problems[name] = problem
  }
  return problems
}

const invalidText = (fields: Record<string, string>): Refused =>
  refused(new ValidationFailed({ message: "The request body has invalid values.", details: { fields } }))
