import { type ParseResult, Schema } from "effect"
import type { Either } from "effect"
import { defaultSigninConfig } from "./defaults.ts"
import { mergePatch } from "./mergePatch.ts"
import { SigninConfig } from "./SigninConfig.ts"

/**
 * Reads a stored config (JSON) over today's defaults, so a field added after
 * a version was written reads as its default instead of failing.
 */
export const decodeStoredSigninConfig = (stored: unknown): Either.Either<SigninConfig, ParseResult.ParseError> =>
  Schema.decodeUnknownEither(SigninConfig)(mergePatch(defaultSigninConfig, stored ?? {}, defaultSigninConfig))

/** The byte limit of a PATCH /v1/apps/{app_id}/signin-config body. */
export const SIGNIN_CONFIG_PATCH_LIMIT_BYTES = 512 * 1024
