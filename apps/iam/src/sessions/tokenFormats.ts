import { randomToken } from "@platform/crypto"

/** IAM's opaque credentials: 256 random bits behind a prefix that says what the value is (decisions.md, "Token formats"). */
export const newAccessToken = () => randomToken("iat_")
export const newRefreshToken = () => randomToken("irt_")
export const newSessionId = () => randomToken("ses_", 16)
