import { randomHex } from "@platform/crypto"

/** An email address no other test uses. */
export const uniqueEmail = (name: string) => `${name}-${randomHex(6)}@example.com`

/** A valid E.164 phone number no other test uses, ending in `n`. */
export const uniquePhone = (n: number) => `+1650${randomHex(3).replace(/[a-f]/g, "7")}${String(n).padStart(4, "0")}`
