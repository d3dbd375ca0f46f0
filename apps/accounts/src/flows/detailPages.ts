import { Option } from "effect"
import type { SigninConfig } from "../apps/signinConfig/SigninConfig.ts"
import type { DetailName } from "../apps/signinConfig/fields.ts"
import type { AuthorizeRequest } from "./AuthorizeRequest.ts"
import type { DetailPage } from "./FlowState.ts"
import type { MembershipRow } from "./Memberships.ts"

export const DETAILS: ReadonlyArray<DetailName> = ["email", "phone", "dob", "timezone"]

/** The account's current value of each detail (contacts unmasked here; the view masks them). */
export type DetailValues = Readonly<Record<DetailName, string | null>>

const isDetail = (scope: string): scope is DetailName => (DETAILS as ReadonlyArray<string>).includes(scope)

/** Detail scopes the membership granted, when it is active. */
export const grantedDetails = (membership: Option.Option<MembershipRow>): ReadonlyArray<DetailName> =>
  Option.match(membership, {
    onNone: () => [],
    onSome: (row) => row.status === "active" ? row.scopes.filter(isDetail) : []
  })

/**
 * The details pages of this sign-in, or none when nothing is to be shown.
 * Required fields go on the first page; optional ones, and details the
 * request asks for that the app did not configure, on the last. Pages appear
 * on the first sign-in to the app (no active membership), with
 * prompt=consent, or when something new is asked: a required or requested
 * detail not granted yet, or a required one with no value.
 */
export const detailPages = (
  config: SigninConfig,
  request: AuthorizeRequest,
  membership: Option.Option<MembershipRow>,
  values: DetailValues
): ReadonlyArray<DetailPage> => {
  const required = DETAILS.filter((field) => config.required_fields.includes(field))
  const requested = request.scopes.filter(isDetail)
  const optional = DETAILS.filter((field) =>
    !required.includes(field) && (config.optional_fields.includes(field) || requested.includes(field))
  )
  const granted = grantedDetails(membership)
  const firstSignin = Option.isNone(membership) || membership.value.status !== "active"
  const somethingNew = [...required, ...requested].some((field) => !granted.includes(field)) ||
    required.some((field) => values[field] === null)
  if (!firstSignin && !somethingNew && !request.prompt.includes("consent")) return []
  const pages: Array<DetailPage> = []
  if (required.length > 0) pages.push({ id: "required", fields: required.map((field) => ({ field, mode: "required" })) })
  if (optional.length > 0) pages.push({ id: "optional", fields: optional.map((field) => ({ field, mode: "optional" })) })
  return pages
}

/** The scopes a completed sign-in grants, in a fixed order: profile always, openid and offline_access when asked. */
export const grantedScopes = (request: AuthorizeRequest, details: ReadonlyArray<DetailName>): ReadonlyArray<string> => [
  ...(request.scopes.includes("openid") ? ["openid"] : []),
  "profile",
  ...DETAILS.filter((field) => details.includes(field)),
  ...(request.scopes.includes("offline_access") ? ["offline_access"] : [])
]
