export {
  type AuthenticatedClient,
  authenticateClient,
  type ClientAuthenticationPolicy,
  invalidClient,
  requirePublicClient,
  type SecretMethod
} from "./clientAuthentication.ts"
export { AUTHORIZATION_CODE, DEVICE_CODE, JWT_BEARER, REFRESH_TOKEN, TOKEN_EXCHANGE } from "./grantTypes.ts"
export { oauthBody, oauthParameter, oauthRequest } from "./oauthBody.ts"
export * from "./OAuthError.ts"
export { oauthParameters, requestParameters, required } from "./oauthParameters.ts"
export { checkRedirectUri, isSecureOrLoopback, type RedirectUriPolicy } from "./redirectUri.ts"
export { codeChallengeOf, isCodeChallenge, isCodeVerifier, pkceHolds, type PkceMethod } from "./pkce.ts"
