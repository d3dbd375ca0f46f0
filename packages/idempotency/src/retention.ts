import { Duration } from "effect"

/** `standard`: an ordinary response; `secret`: a response carrying a newly created secret. */
export type IdempotencyRetention = "standard" | "secret"

export const retentionDuration = (retention: IdempotencyRetention): Duration.Duration =>
  retention === "secret" ? Duration.minutes(10) : Duration.hours(24)
