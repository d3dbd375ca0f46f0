import { randomToken } from "@platform/crypto"

/** Application client secrets: 256 random bits after `acs_`, shown once, kept as a SHA-256 digest (decisions.md, "Application records"). */
export const newClientSecret = () => randomToken("acs_")
