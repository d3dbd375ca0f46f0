import { Effect } from "effect"
import { isTarget, TARGETS } from "../targets/Targets.ts"
import { InvalidQueryValue } from "./errors.ts"
import { type Channel, CHANNELS } from "./Release.ts"

const refused = (parameter: string, value: string | undefined, accepted: ReadonlyArray<string>) =>
  new InvalidQueryValue({
    message: value === undefined
      ? `Query parameter ${parameter} is required: one of ${accepted.join(", ")}.`
      : `Query parameter ${parameter} must be one of ${accepted.join(", ")}.`,
    details: { parameter, problem: value === undefined ? "is required" : "is not an accepted value", accepted }
  })

/** The channel a query names, undefined when it names none. */
export const channelOf = (value: string | undefined): Effect.Effect<Channel | undefined, InvalidQueryValue> =>
  value === undefined
    ? Effect.succeed(undefined)
    : (CHANNELS as ReadonlyArray<string>).includes(value)
    ? Effect.succeed(value as Channel)
    : Effect.fail(refused("channel", value, CHANNELS))

/** The target a query names: required, one of TARGETS. */
export const targetOf = (value: string | undefined): Effect.Effect<string, InvalidQueryValue> =>
  value !== undefined && isTarget(value) ? Effect.succeed(value) : Effect.fail(refused("target", value, TARGETS))
