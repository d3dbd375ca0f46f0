import { type HttpApi, type HttpApiGroup, OpenApi } from "@effect/platform"
import { type ApiVersioning, isVersioned } from "./ApiVersion.ts"
import { errorResponse } from "./ErrorResponse.ts"
import { makeRouteTable } from "./RouteTable.ts"
import {
  InternalError,
  InvalidBody,
  InvalidContentType,
  InvalidJson,
  InvalidPath,
  InvalidQuery,
  PayloadTooLarge,
  UnsupportedMediaType,
  UnsupportedVersion,
  ValidationFailed
} from "./errors.ts"

const BODY_ERRORS = ["ValidationFailed", "InvalidJson", "InvalidBody", "InvalidContentType", "UnsupportedMediaType", "PayloadTooLarge"]
const CONVENTION_ERRORS = [...BODY_ERRORS, "InvalidPath", "InvalidQuery", "UnsupportedVersion", "InternalError"]
const FRAMEWORK_DECODE_ERROR = "HttpApiDecodeError"

/**
 * Adds the request-format errors every endpoint may answer with, so the
 * OpenAPI document shows their real envelopes; `documentConventions` then
 * keeps on each operation only those that can happen there.
 */
export const withConventionErrors = <Id extends string, Groups extends HttpApiGroup.HttpApiGroup.Any, E, R>(
  api: HttpApi.HttpApi<Id, Groups, E, R>,
  versioning: ApiVersioning
) =>
  api
    .addError(errorResponse(ValidationFailed))
    .addError(errorResponse(InvalidJson))
    .addError(errorResponse(InvalidBody))
    .addError(errorResponse(InvalidContentType))
    .addError(errorResponse(UnsupportedMediaType))
    .addError(errorResponse(PayloadTooLarge))
    .addError(errorResponse(InvalidPath))
    .addError(errorResponse(InvalidQuery))
    .addError(errorResponse(UnsupportedVersion))
    .addError(errorResponse(InternalError))
    .annotate(OpenApi.Transform, (spec) => documentConventions(spec, versioning, ownErrorFormat(api)))

/** Whether an operation's route answers in its own error format, where no envelope of the conventions is sent. */
const ownErrorFormat = (api: HttpApi.HttpApi.Any) => {
  const table = makeRouteTable(api)
  return (method: string, path: string) => {
    const route = table.match(method.toUpperCase(), path.replace(/\{([^}]+)\}/g, ":$1"))
    return route !== undefined && route.errorFormat._tag === "Some"
  }
}

type Json = Record<string, unknown>

const refName = (schema: unknown): string | undefined => {
  const ref = (schema as { $ref?: unknown } | undefined)?.$ref
  return typeof ref === "string" ? ref.split("/").at(-1) : undefined
}

const pruneResponse = (response: Json, drop: (name: string) => boolean): Json | undefined => {
  const content = response["content"] as Record<string, { schema?: Json }> | undefined
  const media = content?.["application/json"]
  if (!media?.schema) return response
  const members = Array.isArray(media.schema["anyOf"]) ? (media.schema["anyOf"] as Array<unknown>) : [media.schema]
  const kept = members.filter((member) => {
    const name = refName(member)
    return name === undefined || !drop(name)
  })
  if (kept.length === 0) return undefined
  const schema = kept.length === 1 ? kept[0] as Json : { anyOf: kept }
  const description = kept.map(refName).filter((name) => name !== undefined).join(" | ") || response["description"]
  return { ...response, description, content: { ...content, "application/json": { ...media, schema } } }
}

/** Keeps on each operation only the request-format errors it can answer with. */
export const documentConventions = (
  spec: Json,
  versioning: ApiVersioning,
  hasOwnErrorFormat: (method: string, path: string) => boolean = () => false
): Json => {
  const paths = spec["paths"] as Record<string, Record<string, Json>>
  for (const [path, operations] of Object.entries(paths)) {
    const versioned = isVersioned(versioning, path)
    for (const [method, operation] of Object.entries(operations)) {
      const ownFormat = hasOwnErrorFormat(method, path)
      const parameters = (operation["parameters"] ?? []) as Array<{ in: string }>
      if (versioned) {
        operation["parameters"] = [...parameters, {
          name: versioning.header,
          in: "header",
          required: false,
          description: `Dated API version; omitted selects the current one (${versioning.current}).`,
          schema: { type: "string", enum: versioning.supported }
        }]
      }
      const hasBody = operation["requestBody"] !== undefined
      const hasPath = parameters.some((parameter) => parameter.in === "path")
      const hasQuery = parameters.some((parameter) => parameter.in === "query")
      const drop = (name: string) =>
        name === FRAMEWORK_DECODE_ERROR ||
        (ownFormat && CONVENTION_ERRORS.includes(name)) ||
        (!hasBody && BODY_ERRORS.includes(name)) ||
        (!hasPath && name === "InvalidPath") ||
        (!hasQuery && name === "InvalidQuery") ||
        (!versioned && name === "UnsupportedVersion")
      const responses = operation["responses"] as Record<string, Json>
      for (const [status, response] of Object.entries(responses)) {
        const pruned = pruneResponse(response, drop)
        if (pruned === undefined) delete responses[status]
        else responses[status] = pruned
      }
    }
  }
  const schemas = (spec["components"] as { schemas?: Record<string, unknown> } | undefined)?.schemas
  if (schemas) {
    delete schemas[FRAMEWORK_DECODE_ERROR]
    delete schemas["Issue"]
    delete schemas["PropertyKey"]
  }
  return spec
}
