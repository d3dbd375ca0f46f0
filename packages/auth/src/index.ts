export {
  AccessTokenExpired,
  AccessTokenInvalid,
  type AccessTokenRejected,
  AccessTokenWrongAudience,
  JwksUnavailable
} from "./accessTokenErrors.ts"
export {
  AccessTokenClaims,
  AccessTokenVerifier,
  type AccessTokenVerifierOptions,
  makeAccessTokenVerifier
} from "./AccessTokenVerifier.ts"
export { basicAuthorization, type BasicCredentials, parseBasic } from "./basicCredentials.ts"
export { bearerToken } from "./bearerToken.ts"
export {
  internalTokenCheck,
  type InternalTokenErrorClass,
  type InternalTokenErrors,
  internalTokenFailure
} from "./internalToken.ts"
export { makeRemoteJwks, type RemoteJwks, type RemoteJwksOptions } from "./RemoteJwks.ts"
