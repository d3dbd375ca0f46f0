import { Duration } from "effect"

/** How long a running request holds its key before another request may take it over. */
export const IDEMPOTENCY_HOLD: Duration.Duration = Duration.seconds(120)

/** How long an abandoned running row is kept before the sweep removes it. */
export const IDEMPOTENCY_ABANDONED_CLAIM_TTL: Duration.Duration = Duration.hours(24)

/** `standard`: an ordinary response; `secret`: a response carrying a newly created secret. */
export type IdempotencyRetention = "standard" | "secret"

export const retentionDuration = (retention: IdempotencyRetention): Duration.Duration =>
  retention === "secret" ? Duration.minutes(10) : Duration.hours(24)
