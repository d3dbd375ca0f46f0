import { randomToken } from "@platform/crypto"

/**
 * The application side's opaque credentials (decisions.md, "Application tokens"): 256 random bits behind a prefix
 * other than a direct IAM bearer's, so neither can pass for the other.
 */
export const APPLICATION_ACCESS_PREFIX = "aat_"
export const APPLICATION_REFRESH_PREFIX = "art_"

export const newShortLivedToken = () => randomToken("slt_")
export const newApplicationAccessToken = () => randomToken(APPLICATION_ACCESS_PREFIX)
export const newApplicationRefreshToken = () => randomToken(APPLICATION_REFRESH_PREFIX)
export const newApplicationSessionId = () => randomToken("aps_", 16)
export const newOnBehalfOfProof = () => randomToken("obo_")
