/**
 * Where a receiver's deliveries go now, read at each attempt (so a changed URL, a rotated secret or
 * a removed webhook applies to retries and replays): deliver to its URL signed with its secret, fail
 * at once (nothing to deliver to: the URL was removed, no secret exists), or hold (the receiver is
 * paused: kept pending and tried again later, failed once the retry window has passed).
 */
export type WebhookRoute =
  | {
    readonly _tag: "Deliver"
    readonly url: string
    readonly secret: string
    /**
     * The receiver's secrets by version, for a keyed delivery: it is signed with the version it
     * names, and fails once that version is no longer accepted.
     */
    readonly versions?: ReadonlyMap<number, string> | undefined
  }
  | { readonly _tag: "Fail"; readonly reason: string }
  | { readonly _tag: "Hold"; readonly reason: string }

export const WebhookRoute = {
  deliver: (url: string, secret: string): WebhookRoute => ({ _tag: "Deliver", url, secret }),
  /** `secret` is the current version's. */
  deliverVersioned: (url: string, secret: string, versions: ReadonlyMap<number, string>): WebhookRoute => ({
    _tag: "Deliver",
    url,
    secret,
    versions
  }),
  fail: (reason: string): WebhookRoute => ({ _tag: "Fail", reason }),
  hold: (reason: string): WebhookRoute => ({ _tag: "Hold", reason })
} as const
