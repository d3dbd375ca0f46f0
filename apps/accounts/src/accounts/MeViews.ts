import { Context, type Effect, type Option } from "effect"
import type { AccountMe } from "./Me.ts"

/**
 * Reads an account as it sees itself. The token endpoint and /v1/me need it; a Silicon's
 * view needs its custody, which the silicons area reads, so silicons/MeViewsLive.ts puts it
 * together: areas that may import silicons/ provide it themselves, and the composition root
 * gives it to oauth's own grants (oauth/ never imports silicons/).
 */
export class MeViews extends Context.Tag("accounts/MeViews")<MeViews, {
  /** The account's own view; none for an unknown uuid. */
  readonly find: (uuid: string) => Effect.Effect<Option.Option<AccountMe>>
  /** For an account that must exist (a live sign-in names it): a missing one is a defect. */
  readonly load: (uuid: string) => Effect.Effect<AccountMe>
}>() {}
