import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import type { ApiErrorStatics } from "./ApiError.ts"

/** What `errorResponse` takes: an error class made by `ApiError`. */
export type ErrorResponseClass = Schema.Schema.AnyNoContext & ApiErrorStatics & {
  readonly identifier: string
  readonly detailsSchema: Schema.Schema.AnyNoContext
  readonly hasDetails: boolean
}

const cache = new WeakMap<object, Schema.Schema.AnyNoContext>()

/**
 * The schema an endpoint declares for an error: the wire side is the
 * envelope `{"error":{"code","message","hint"?,"details"?}}`, the typed side is
 * the error class, so a handler's error channel stays the exact union of
 * classes while the OpenAPI document shows the real body.
 */
export const errorResponse = <E extends ErrorResponseClass>(
  ErrorClass: E
): Schema.Schema<Schema.Schema.Type<E>, unknown> => {
  const cached = cache.get(ErrorClass)
  if (cached) return cached as Schema.Schema<Schema.Schema.Type<E>, unknown>
  const common = { code: Schema.Literal(ErrorClass.code), message: Schema.String, hint: Schema.optional(Schema.String) }
  // An error without details documents no `details` member at all.
  const Envelope = Schema.Struct({
    error: ErrorClass.hasDetails
      ? Schema.Struct({ ...common, details: Schema.optional(Schema.encodedSchema(ErrorClass.detailsSchema)) })
      : Schema.Struct(common)
  })
  const schema = Schema.transform(Envelope, ErrorClass, {
    strict: false,
    decode: ({ error }) => ({
      _tag: ErrorClass.identifier,
      message: error.message,
      hint: error.hint,
      details: "details" in error ? error.details : undefined
    }),
    encode: (instance: { message: string; hint?: string; details?: unknown }) => ({
      error: {
        code: ErrorClass.code,
        message: instance.message,
        ...(instance.hint === undefined ? {} : { hint: instance.hint }),
        ...(instance.details === undefined ? {} : { details: instance.details })
      }
    })
  }).annotations({
    ...HttpApiSchema.annotations({ status: ErrorClass.status }),
    identifier: ErrorClass.identifier,
    description: ErrorClass.code
  })
  cache.set(ErrorClass, schema as unknown as Schema.Schema.AnyNoContext)
  return schema as unknown as Schema.Schema<Schema.Schema.Type<E>, unknown>
}
