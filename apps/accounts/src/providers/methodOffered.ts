import { Option } from "effect"
import type { AppRow } from "../apps/AppRecord.ts"
import type { Method } from "../apps/signinConfig/fields.ts"
import type { ProviderRegistry } from "./ProviderRegistry.ts"

/**
 * Whether an enabled method can be offered on the hosted page: a code always, a provider when the
 * registry has a client for the app (its `clientFor`, the same rule the provider start uses; it opens no secret).
 */
export const methodOffered = (registry: Pick<ProviderRegistry, "lookup">, app: AppRow) => (method: Method): boolean =>
  method === "email" || method === "phone" ||
  Option.isSome(Option.flatMap(registry.lookup(method), (provider) => provider.clientFor(app)))
