import { Data } from "effect"

/** The signing keys' configuration is invalid (e.g. an encryption key that is not 32 bytes); the service must not start. */
export class SigningKeysConfigError extends Data.TaggedError("SigningKeysConfigError")<{ readonly message: string }> {}

/** A stored key cannot be used: encrypted without a configured key, undecryptable, or missing. */
export class SigningKeyLoadError extends Data.TaggedError("SigningKeyLoadError")<{
  readonly kid?: string
  readonly message: string
}> {}

/** Why a JWT was not accepted: `expired`, a failed claim check, or `invalid` (signature, format, key). */
export class JwtRejected extends Data.TaggedError("JwtRejected")<{ readonly reason: string }> {}
