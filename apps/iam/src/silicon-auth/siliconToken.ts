import { randomHex } from "@platform/crypto"

/** Spec 2: an IAM Silicon token is `stk-` and 32 lowercase hex characters (128 bits). */
export const SILICON_TOKEN = /^stk-[0-9a-f]{32}$/

export const newSiliconToken = (): string => `stk-${randomHex(32)}`
