/** A handler's answer for a job that cannot be done yet: kept pending until `until`, no attempt counted. */
export interface Postponed {
  readonly _tag: "Postponed"
  readonly until: Date
  /** Stored in `last_error` meanwhile, e.g. `the recipient is paused`. */
  readonly reason: string
}

export const postpone = (until: Date, reason: string): Postponed => ({ _tag: "Postponed", until, reason })

export const isPostponed = (value: unknown): value is Postponed =>
  typeof value === "object" && value !== null && "_tag" in value && value._tag === "Postponed"
