import { randomHex } from "@platform/crypto"
import { Either } from "effect"

const STK_PREFIX = "stk-"
const CHOSEN = /^(?:stk-)?([0-9a-f]{8,32})$/

/** A generated STK: `stk-` and 12 lowercase hex characters (spec 1, Conventions). */
export const generateStk = (): string => `${STK_PREFIX}${randomHex(12)}`

/**
 * A chosen STK as stored and compared: `stk-` and 8 to 32 hex characters, the
 * prefix added to bare hex and case ignored (`ABCD1234` is `stk-abcd1234`).
 */
export const normalizeStk = (input: string): Either.Either<string, string> => {
  const match = CHOSEN.exec(input.trim().toLowerCase())
  return match === null
    ? Either.left("must be stk- followed by 8 to 32 hex characters (bare hex is accepted)")
    : Either.right(`${STK_PREFIX}${match[1]}`)
}
