import { columnsOf } from "@platform/database"
import { strict } from "@platform/http"
import { Schema } from "effect"

/** Spec 1, Sizes and counts: live trusts per Silicon and their fields. */
export const FEDERATION_LIMITS = {
  liveTrusts: 20,
  conditions: { min: 1, max: 10 },
  claim: 100,
  value: 500,
  issuer: 300,
  audience: 400,
  name: 100
} as const

const text = (min: number, max: number) =>
  Schema.String.pipe(
    Schema.minLength(min, { message: () => `must be ${min} to ${max} characters` }),
    Schema.maxLength(max, { message: () => `must be ${min} to ${max} characters` }),
    Schema.pattern(/^[^\p{Cc}]*$/u, { message: () => "must not contain control characters" })
  )

/** One claim rule: the outside token's claim `claim` must equal `value` (or, for a list claim, contain it). */
export const FederationCondition = strict(Schema.Struct({
  claim: text(1, FEDERATION_LIMITS.claim),
  value: text(1, FEDERATION_LIMITS.value)
})).annotations({ identifier: "FederationCondition" })
export type FederationCondition = typeof FederationCondition.Type

const { max, min } = FEDERATION_LIMITS.conditions

export const NewFederation = strict(Schema.Struct({
  name: text(1, FEDERATION_LIMITS.name),
  issuer: text(1, FEDERATION_LIMITS.issuer).annotations({
    description: "The issuer's https URL, exactly as its tokens' iss; its OpenID discovery document is read at {issuer}/.well-known/openid-configuration"
  }),
  audience: text(1, FEDERATION_LIMITS.audience).annotations({ description: "What the outside token's aud must be (or contain)" }),
  conditions: Schema.Array(FederationCondition).pipe(
    Schema.minItems(min, { message: () => `must hold ${min} to ${max} conditions` }),
    Schema.maxItems(max, { message: () => `must hold ${min} to ${max} conditions` })
  )
})).annotations({ identifier: "NewFederation" })

/** A live trust as stored. */
export const FederationRow = Schema.Struct({
  id: Schema.String,
  silicon_uuid: Schema.String,
  name: Schema.String,
  issuer: Schema.String,
  audience: Schema.String,
  conditions: Schema.Array(Schema.Struct({ claim: Schema.String, value: Schema.String })),
  created_at: Schema.DateFromSelf
})
export type FederationRow = typeof FederationRow.Type
export const FEDERATION_COLUMNS = columnsOf(FederationRow.fields)

export const Federation = Schema.Struct({
  id: Schema.String.annotations({ description: "The trust's id (a UUID)" }),
  name: Schema.String,
  issuer: Schema.String,
  audience: Schema.String,
  conditions: Schema.Array(FederationCondition),
  created_at: Schema.String.annotations({ description: "RFC 3339 UTC with milliseconds" })
}).annotations({ identifier: "Federation" })

export const FederationList = Schema.Struct({
  items: Schema.Array(Federation),
  next_cursor: Schema.NullOr(Schema.String).annotations({ description: "Always null: a Silicon has at most 20 live trusts" })
}).annotations({ identifier: "FederationList" })

export const federationOf = (row: FederationRow): typeof Federation.Type => ({
  id: row.id,
  name: row.name,
  issuer: row.issuer,
  audience: row.audience,
  conditions: row.conditions,
  created_at: row.created_at.toISOString()
})
