import { ApiError } from "@platform/http"

/** Spec 2: a webhook projection is at most 1 MiB; a change whose event would pass it is refused whole. */
export class EventTooLarge extends ApiError<EventTooLarge>()("EventTooLarge", {
  code: "event_too_large",
  status: 413
}) {}
