import { Duration } from "effect"

const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? "" : "s"}`

/**
 * A lifetime as a person reads it: `10 minutes`, `2 hours`, `90 seconds`. A whole number of
 * the largest unit is used from two of it on, so 60 seconds stay `60 seconds`.
 */
export const durationInWords = (duration: Duration.Duration): string => {
  const seconds = Math.round(Duration.toSeconds(duration))
  for (const [unit, size] of [["day", 86_400], ["hour", 3_600], ["minute", 60]] as const) {
    if (seconds >= 2 * size && seconds % size === 0) return plural(seconds / size, unit)
  }
  return plural(seconds, "second")
}

/** A duration in whole seconds, as the lock is told: `60 seconds`. */
export const secondsInWords = (duration: Duration.Duration): string =>
  plural(Math.round(Duration.toSeconds(duration)), "second")

/** `1st`, `2nd`, `3rd`, `10th`, `11th`, `22nd`. */
export const ordinal = (n: number): string => {
  const lastTwo = n % 100
  const suffix = lastTwo >= 11 && lastTwo <= 13
    ? "th"
    : n % 10 === 1
    ? "st"
    : n % 10 === 2
    ? "nd"
    : n % 10 === 3
    ? "rd"
    : "th"
  return `${n}${suffix}`
}
