import { fetchAnswer, ServiceUrl } from "@platform/testkit"
import { Effect } from "effect"

/** A request to the server under test, read whole (status, headers, parsed JSON body). */
export const answerOf = (path: string, init: RequestInit = {}) =>
  Effect.flatMap(ServiceUrl, (url) => Effect.promise(() => fetchAnswer(`${url}${path}`, init)))
