/** grant_type values of RFC 6749 §4.1.3 and §6, RFC 8628 §3.4, RFC 7523 §2.1 and RFC 8693 §2.1. */
export const AUTHORIZATION_CODE = "authorization_code"
export const REFRESH_TOKEN = "refresh_token"
export const DEVICE_CODE = "urn:ietf:params:oauth:grant-type:device_code"
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer"
export const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange"
