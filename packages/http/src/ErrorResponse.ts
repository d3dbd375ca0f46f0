import { HttpApiSchema } from "@effect/platform"
import { Schema } from "effect"
import type { ApiErrorStatics } from "./ApiError.ts"

/** What `errorResponse` takes: an error class made by `ApiError`. */
export type ErrorResponseClass = Schema.Schema.AnyNoContext & ApiErrorStatics & {
  readonly identifier: string
  readonly detailsSchema: Schema.Schema.AnyNoContext
  readonly hasDetails: boolean
}

const caches = { compact: new WeakMap<object, Schema.Schema.AnyNoContext>(), complete: new WeakMap<object, Schema.Schema.AnyNoContext>() }

/**
 * How an envelope writes what an error does not say: `compact` leaves `hint` and `details` out (spec 1:
 * "optional hint, optional details"); `complete` always writes all four members, `null` when empty
 * (spec 2's registry: "code, message, hint, details (null allowed)").
 */
export type EnvelopeStyle = "compact" | "complete"

/**
 * The schema an endpoint declares for an error: the wire side is the
 * envelope `{"error":{"code","message","hint"?,"details"?}}`, the typed side is
 * the error class, so a handler's error channel stays the exact union of
 * classes while the OpenAPI document shows the real body.
 */
export const errorResponse = <E extends ErrorResponseClass>(
  ErrorClass: E,
  style: EnvelopeStyle = "compact"
): Schema.Schema<Schema.Schema.Type<E>, unknown> => {
  const cache = caches[style]
  const cached = cache.get(ErrorClass)
  if (cached) return cached as Schema.Schema<Schema.Schema.Type<E>, unknown>
  const complete = style === "complete"
  const common = {
    code: Schema.Literal(ErrorClass.code),
    message: Schema.String,
    hint: complete ? Schema.NullOr(Schema.String) : Schema.optional(Schema.String)
  }
  const detailsSchema = Schema.encodedSchema(ErrorClass.detailsSchema)
  // A compact error without details documents no `details` member at all; a complete one always writes null.
  const Envelope = Schema.Struct({
    error: complete
      ? Schema.Struct({ ...common, details: ErrorClass.hasDetails ? Schema.NullOr(detailsSchema) : Schema.Null })
      : ErrorClass.hasDetails
      ? Schema.Struct({ ...common, details: Schema.optional(detailsSchema) })
      : Schema.Struct(common)
  })
  const schema = Schema.transform(Envelope, ErrorClass, {
    strict: false,
    decode: ({ error }) => ({
      _tag: ErrorClass.identifier,
      message: error.message,
      hint: error.hint ?? undefined,
      details: "details" in error && error.details !== null ? error.details : undefined
    }),
    encode: (instance: { message: string; hint?: string; details?: unknown }) => envelopeOf(ErrorClass.code, instance, style)
  }).annotations({
    ...HttpApiSchema.annotations({ status: ErrorClass.status }),
    identifier: ErrorClass.identifier,
    description: ErrorClass.code
  })
  cache.set(ErrorClass, schema as unknown as Schema.Schema.AnyNoContext)
  return schema as unknown as Schema.Schema<Schema.Schema.Type<E>, unknown>
}

/** The wire body of an error in the given style. */
export const envelopeOf = (
  code: string,
  error: { readonly message: string; readonly hint?: string | undefined; readonly details?: unknown },
  style: EnvelopeStyle
) => ({
  error: style === "complete"
    ? { code, message: error.message, hint: error.hint ?? null, details: error.details ?? null }
    : {
      code,
      message: error.message,
      ...(error.hint === undefined ? {} : { hint: error.hint }),
      ...(error.details === undefined ? {} : { details: error.details })
    }
})
