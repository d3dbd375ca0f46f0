import { Duration } from "effect"

/** Spec 1's STK lockout, kept for IAM's tokens: ten wrong tokens in a row lock a Silicon's login for 60 seconds. */
export const SILICON_TOKEN_STREAKS = {
  table: "silicon_token_streaks",
  failuresBeforeLock: 10,
  lock: Duration.seconds(60)
} as const
