import { strict } from "@platform/http"
import { Schema } from "effect"
import { APP_ID_RULE, isValidAppId } from "./AppId.ts"

/**
 * What an author may write on an app, with its limits (docs/decisions.md, "App fields"). Each rule is
 * a schema, so a bad value is 422 validation_failed naming the field (`links.custom.0.url`) with the rule.
 */

const MAX_URL = 2048

const isHttpsUrl = (input: string) => {
  if (input.length > MAX_URL) return false
  try {
    const url = new URL(input)
    return url.protocol === "https:" && url.hostname !== "" && url.username === "" && url.password === ""
  } catch {
    return false
  }
}

export const HttpsUrl = Schema.String.pipe(
  Schema.filter(isHttpsUrl, { message: () => `must be an https URL of at most ${MAX_URL} characters, without credentials` })
).annotations({ description: `https URL, at most ${MAX_URL} characters` })

/** Absent or a value (never `undefined`, which JSON cannot send, so a bad value is reported by its own rule). */
const optional = <S extends Schema.Schema.Any>(schema: S) => Schema.optionalWith(schema, { exact: true })
/** A value or null (null first would hide the value's own rule behind "Expected null"). */
const orNull = <S extends Schema.Schema.Any>(schema: S) => Schema.Union(schema, Schema.Null)

/** Text trimmed of surrounding spaces, `min` to `max` characters. */
const Text = (min: number, max: number) =>
  Schema.Trim.pipe(
    Schema.filter((text) => text.length >= min && text.length <= max, {
      message: () => `must be ${min} to ${max} characters`
    })
  ).annotations({ description: `${min} to ${max} characters` })

export const AppIdInput = Schema.String.pipe(Schema.filter(isValidAppId, { message: () => APP_ID_RULE }))
  .annotations({ description: "3 to 30 of a-z 0-9 - _, beginning with a letter or digit" })

export const AppName = Text(1, 100)
/** Up to 600 characters (publishing needs 200 to 600); empty clears it. */
export const Description = Text(0, 600)

const TAG = /^[a-z0-9][a-z0-9-]{0,29}$/
export const Tags = Schema.Array(
  Schema.String.pipe(Schema.filter((tag) => TAG.test(tag), { message: () => "must be 1 to 30 of a-z 0-9 -, beginning with a letter or digit" }))
).pipe(
  Schema.maxItems(10),
  Schema.filter((tags) => new Set(tags).size === tags.length, { message: () => "must not repeat a tag" })
).annotations({ description: "At most 10 distinct tags of a-z 0-9 - (1 to 30 characters)" })

export const CarouselInput = Schema.Array(Schema.Struct({
  url: HttpsUrl,
  kind: Schema.Literal("image", "video"),
  alt: Text(1, 200)
})).pipe(Schema.maxItems(10)).annotations({ description: "At most 10 images or videos, each with its alternative text" })

export const LinksInput = Schema.Struct({
  website: optional(orNull(HttpsUrl)),
  developer_docs: optional(orNull(HttpsUrl)),
  android: optional(orNull(HttpsUrl)),
  ios: optional(orNull(HttpsUrl)),
  custom: optional(
    Schema.Array(Schema.Struct({ label: Text(1, 50), url: HttpsUrl, logo: optional(orNull(HttpsUrl)) })).pipe(
      Schema.maxItems(5)
    )
  )
}).annotations({ description: "The links sent replace theirs; those left out stay (custom: at most 5, replaced as a whole)" })

export const CreateApp = strict(Schema.Struct({
  app_id: AppIdInput,
  name: AppName,
  description: optional(orNull(Description)),
  logo: optional(orNull(HttpsUrl))
})).annotations({ identifier: "CreateApp" })

export const AppPatch = strict(Schema.Struct({
  name: optional(AppName),
  description: optional(orNull(Description)),
  tags: optional(Tags),
  logo: optional(orNull(HttpsUrl)),
  banner: optional(orNull(HttpsUrl)),
  carousel: optional(CarouselInput),
  links: optional(LinksInput),
  setup_step: optional(Schema.Int.pipe(Schema.between(1, 7)))
})).annotations({ identifier: "AppPatch" })
export type AppPatch = typeof AppPatch.Type

const LABEL = "(?!-)[a-z0-9-]{1,63}(?<!-)"
const DOMAIN = new RegExp(`^(?=.{1,253}$)${LABEL}(\\.${LABEL})+$`)

export const AccessInput = strict(Schema.Struct({
  visibility: Schema.Literal("public", "private"),
  domains: Schema.Array(
    Schema.String.pipe(Schema.filter((domain) => DOMAIN.test(domain), {
      message: () => "must be a lower-case domain name of at least two labels (example.com)"
    }))
  ).pipe(Schema.maxItems(50)).annotations({ description: "At most 50 domains: a Carbon with a verified email there sees a private app" }),
  account_ids: Schema.Array(Schema.String.pipe(Schema.maxLength(100))).pipe(Schema.maxItems(100)).annotations({
    description: "At most 100 accounts: c: or si: ids, or uuids; stored and shown as uuids"
  })
})).annotations({ identifier: "AppAccessInput" })
export type AccessInput = typeof AccessInput.Type
