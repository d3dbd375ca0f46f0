import { Duration } from "effect"

/** `standard`: an ordinary response; `secret`: a response carrying a newly created secret. */
export type IdempotencyRetention = "standard" | "secret"

/** How long an answer is replayed: 10 minutes for one carrying a new secret, else 24 hours. */
export const retentionDuration = (retention: IdempotencyRetention): Duration.Duration =>
  retention === "secret" ? Duration.minutes(10) : KEY_RETENTION

/** How long a key stays taken by its request, whatever its answer: a retry past the answer's time is told, not run again. */
export const KEY_RETENTION: Duration.Duration = Duration.hours(24)
