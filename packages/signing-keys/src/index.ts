export { JwtRejected, SigningKeyLoadError, SigningKeysConfigError } from "./errors.ts"
export type { Jwks, PublicJwk } from "./PublicJwk.ts"
export { SIGNING_ALGS, type SigningAlg } from "./SigningAlg.ts"
export {
  PUBLISHED_AFTER_RETIREMENT,
  type RotatedKey,
  SigningKeys,
  type SigningKeysOptions,
  type SignJwtHeader
} from "./SigningKeys.ts"
export { SigningKeysMigration } from "./SigningKeysMigration.ts"
