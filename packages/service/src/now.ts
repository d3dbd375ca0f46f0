import { Clock, Effect } from "effect"

/** The current time from Effect's Clock (so tests can move it), as a Date. */
export const now: Effect.Effect<Date> = Effect.map(Clock.currentTimeMillis, (millis) => new Date(millis))

/** A time as JWT and OpenID claims carry it: whole seconds since the epoch. */
export const epochSeconds = (date: Date): number => Math.floor(date.getTime() / 1000)
