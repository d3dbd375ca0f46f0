import { HttpApiSchema } from "@effect/platform"
import type { YieldableError } from "effect/Cause"
import { Schema } from "effect"
import { envelopeOf } from "./ErrorResponse.ts"

/**
 * Every failure the services answer with has one JSON shape:
 * `{"error":{"code","message","hint"?,"details"?}}`.
 *
 * An error is a `Schema.TaggedError` class made by `ApiError`, carrying its
 * HTTP status and stable `code` as statics. Endpoints declare it with
 * `errorResponse(TheError)`, whose encoded side is the envelope, so
 * `/openapi.json` documents exactly what goes over the wire.
 */
export interface ApiErrorStatics {
  readonly code: string
  readonly status: number
}

export interface ApiErrorFields {
  readonly message: string
  readonly hint?: string | undefined
  readonly details?: unknown
}

type ErrorFields<Details extends Schema.Schema.AnyNoContext> = {
  readonly message: typeof Schema.String
  readonly hint: Schema.optional<typeof Schema.String>
  readonly details: Schema.optional<Details>
}

type TaggedFields<Tag extends string, Details extends Schema.Schema.AnyNoContext> =
  & { readonly _tag: Schema.tag<Tag> }
  & ErrorFields<Details>

export interface ApiErrorClass<Self, Tag extends string, Code extends string, Details extends Schema.Schema.AnyNoContext>
  extends
    Schema.Class<
      Self,
      TaggedFields<Tag, Details>,
      Schema.Struct.Encoded<TaggedFields<Tag, Details>>,
      never,
      Schema.Struct.Constructor<Omit<TaggedFields<Tag, Details>, "_tag">>,
      {},
      YieldableError & { readonly code: Code; readonly status: number }
    >
{
  readonly _tag: Tag
  readonly code: Code
  readonly status: number
  readonly detailsSchema: Details
  readonly hasDetails: boolean
}

/**
 * `class RateLimited extends ApiError<RateLimited>()("RateLimited", { code: "rate_limited", status: 429, details: RetryDetails }) {}`
 */
export const ApiError = <Self>() =>
<
  const Tag extends string,
  const Code extends string,
  Details extends Schema.Schema.AnyNoContext = typeof Schema.Undefined
>(
  tag: Tag,
  options: { readonly code: Code; readonly status: number; readonly details?: Details; readonly description?: string }
): ApiErrorClass<Self, Tag, Code, Details> => {
  const details = (options.details ?? Schema.Undefined) as Details
  const fields: ErrorFields<Details> = {
    message: Schema.String,
    hint: Schema.optional(Schema.String),
    details: Schema.optional(details)
  }
  const Base = Schema.TaggedError<Self>()(
    tag,
    fields,
    HttpApiSchema.annotations({ status: options.status, description: options.description ?? options.code })
  ) as unknown as new(props: object) => object
  class WithStatics extends Base {
    static readonly code = options.code
    static readonly status = options.status
    static readonly detailsSchema = details
    static readonly hasDetails = options.details !== undefined
    get code(): Code {
      return options.code
    }
    get status(): number {
      return options.status
    }
  }
  return WithStatics as unknown as ApiErrorClass<Self, Tag, Code, Details>
}

export interface ApiErrorInstance extends ApiErrorFields {
  readonly _tag: string
  readonly code: string
  readonly status: number
}

export const isApiError = (u: unknown): u is ApiErrorInstance =>
  typeof u === "object" && u !== null && "_tag" in u && "code" in u && "status" in u &&
  typeof u.status === "number" && typeof u.code === "string" && "message" in u && typeof u.message === "string"

/**
 * A typed refusal raised as a defect by code whose error channel stays empty (e.g. a service many
 * callers share): the whole request fails and rolls back, and the answer is `error` as declared.
 */
export class AnsweredDefect {
  constructor(readonly error: ApiErrorInstance) {}
}

/** The wire body of an error (the compact envelope; see `envelopeOf`). */
export const errorBody = (error: ApiErrorInstance) => envelopeOf(error.code, error, "compact")
