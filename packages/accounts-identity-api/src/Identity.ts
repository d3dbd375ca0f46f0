import { strict } from "@platform/http"
import { ParseResult, Schema } from "effect"

export const IdentityStatus = Schema.Literal("active", "pending_custodian", "deleted").annotations({
  description: "active; pending_custodian (a self-created Silicon no Carbon has accepted yet); deleted. Only active accounts may sign in."
})
export type IdentityStatus = typeof IdentityStatus.Type

const AccountIdText = Schema.NullOr(Schema.String).annotations({
  description: "The current id (c:<handle> or si:<handle>); null once a deleted account gave it up"
})

const identityFields = {
  uuid: Schema.String,
  id: AccountIdText,
  display_name: Schema.String,
  status: IdentityStatus
}

export const CarbonIdentity = Schema.Struct({
  ...identityFields,
  kind: Schema.Literal("carbon"),
  verified_emails: Schema.Array(Schema.String).annotations({ description: "Verified emails, primary first" }),
  verified_phones: Schema.Array(Schema.String).annotations({ description: "Verified phones in E.164, primary first" })
}).annotations({ identifier: "CarbonIdentity" })
export type CarbonIdentity = typeof CarbonIdentity.Type

export const SiliconIdentity = Schema.Struct({
  ...identityFields,
  kind: Schema.Literal("silicon")
}).annotations({ identifier: "SiliconIdentity" })
export type SiliconIdentity = typeof SiliconIdentity.Type

export const Identity = Schema.Union(CarbonIdentity, SiliconIdentity).annotations({ identifier: "Identity" })
export type Identity = typeof Identity.Type

/** A Carbon to create for a person whose email or phone the caller has verified. */
export const NewCarbonIdentity = strict(Schema.Struct({
  email: Schema.optional(Schema.String.pipe(Schema.maxLength(320)).annotations({ description: "The verified email; send it or phone" })),
  phone: Schema.optional(
    Schema.String.pipe(Schema.maxLength(40)).annotations({ description: "The verified phone in E.164; send it or email" })
  ),
  id: Schema.optional(
    Schema.String.pipe(Schema.maxLength(64)).annotations({
      description: "c:<handle> or a bare handle; absent: one is made from the display name"
    })
  ),
  display_name: Schema.String.pipe(Schema.maxLength(1000)).annotations({ description: "1 to 100 characters" }),
  timezone: Schema.optional(
    Schema.String.pipe(Schema.maxLength(64)).annotations({ description: "IANA time zone name; default UTC" })
  )
})).annotations({ identifier: "NewCarbonIdentity" })
export type NewCarbonIdentity = typeof NewCarbonIdentity.Type

/** A Silicon to create with a Carbon as its custodian (IAM: a Silicon made in an organization). */
export const NewSiliconIdentity = strict(Schema.Struct({
  id: Schema.String.pipe(Schema.maxLength(64)).annotations({ description: "si:<handle> or a bare handle" }),
  display_name: Schema.String.pipe(Schema.maxLength(1000)).annotations({ description: "1 to 100 characters" }),
  custodian_uuid: Schema.String.pipe(Schema.maxLength(100)).annotations({
    description: "The uuid of the active Carbon who becomes its custodian"
  }),
  timezone: Schema.optional(
    Schema.String.pipe(Schema.maxLength(64)).annotations({ description: "IANA time zone name; default UTC" })
  )
})).annotations({ identifier: "NewSiliconIdentity" })
export type NewSiliconIdentity = typeof NewSiliconIdentity.Type

export const IdentityChange = Schema.Struct({
  cursor: Schema.String.annotations({ description: "This change's position; pass it as after to read what follows" }),
  uuid: Schema.String,
  kind: Schema.Literal("carbon", "silicon"),
  id: AccountIdText,
  display_name: Schema.String,
  status: IdentityStatus
}).annotations({
  identifier: "IdentityChange",
  description: "An account whose id, display name or status changed, as it is now (not as it was at the change)"
})
export type IdentityChange = typeof IdentityChange.Type

export const IdentityChanges = Schema.Struct({
  items: Schema.Array(IdentityChange),
  cursor: Schema.String.annotations({
    description: "The last item's cursor, or the after sent when there is none: keep it and send it as after next time"
  }),
  more: Schema.Boolean.annotations({ description: "Whether more settled changes follow this page now" })
}).annotations({ identifier: "IdentityChanges" })
export type IdentityChanges = typeof IdentityChanges.Type

/**
 * A path parameter: the server reads it decoded; a client encodes it (`encodeURIComponent`), so an
 * email or a `+` phone goes over the wire as one segment whatever it holds.
 */
export const PathSegment = (description: string) =>
  Schema.transformOrFail(Schema.String.pipe(Schema.maxLength(400)), Schema.String, {
    strict: true,
    decode: ParseResult.succeed,
    encode: (value, _, ast) =>
      ParseResult.try({
        try: () => encodeURIComponent(value),
        catch: () => new ParseResult.Type(ast, value, "cannot be percent-encoded")
      })
  }).annotations({ description })
