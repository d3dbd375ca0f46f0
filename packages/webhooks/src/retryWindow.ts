import { Duration, Option } from "effect"
import type { Job } from "@platform/queue"
import type { DeliveryJob } from "./DeliveryJob.ts"

/**
 * The retry policy of deliveries: after the n-th failed attempt wait `waits[n-1]` (the last wait
 * repeats), while the next attempt still falls before the window's end, measured from the event's
 * time; otherwise the delivery has failed (and can be replayed).
 */
export const retryWithin = (waits: ReadonlyArray<Duration.DurationInput>, window: Duration.DurationInput) => {
  const millis = waits.map((wait) => Duration.toMillis(Duration.decode(wait)))
  if (millis.length === 0) throw new Error("retryWithin: at least one wait")
  const windowMillis = Duration.toMillis(Duration.decode(window))
  return (job: Job<DeliveryJob>, failedAt: Date): Option.Option<Date> => {
    const wait = millis[Math.min(job.attempt, millis.length) - 1]!
    const next = failedAt.getTime() + wait
    return next < job.payload.event_occurred_at.getTime() + windowMillis ? Option.some(new Date(next)) : Option.none()
  }
}
