import { Either } from "effect"

const CURRENT = /^[a-z0-9_-]{3,30}$/
/** Older ids stay valid: 2 to 40 of a-z 0-9 - beginning with a letter (spec 1, Conventions). */
const LEGACY = /^[a-z][a-z0-9-]{1,39}$/

export const isValidAppId = (appId: string): boolean => CURRENT.test(appId) || LEGACY.test(appId)

/** The first-party public client, which is also the first-party audience (CONTRACT.md). */
export const FIRST_PARTY_APP_ID = "accounts"
/** The client developer's public client (CONTRACT.md). */
export const DEVELOPER_APP_ID = "developer"

/** An app id to create: the current rule only (legacy ids are read, never made). */
export const validateNewAppId = (appId: string): Either.Either<string, string> =>
  CURRENT.test(appId) ? Either.right(appId) : Either.left("must be 3 to 30 characters of a-z 0-9 - _")
