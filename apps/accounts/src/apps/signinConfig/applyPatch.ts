import { Schema } from "effect"
import { defaultSigninConfig } from "./defaults.ts"
import { mergePatch } from "./mergePatch.ts"
import { SigninConfig } from "./SigninConfig.ts"
import type { SigninConfigPatch } from "./SigninConfigPatch.ts"

/** What a patch does to one write-only idp secret. */
export type SecretChange =
  | { readonly _tag: "Unchanged" }
  | { readonly _tag: "Set"; readonly value: string }
  | { readonly _tag: "Removed" }

export interface SecretChanges {
  readonly client_secret: SecretChange
  readonly private_key: SecretChange
}

/** The secrets currently stored, when the caller has them at hand: sending the same one again is then no change. */
export interface StoredSecrets {
  readonly client_secret?: string | null
  readonly private_key?: string | null
}

export interface PatchResult {
  readonly config: SigninConfig
  readonly secrets: SecretChanges
  /** False when nothing would differ: no new version is written. */
  readonly changed: boolean
}

const unchanged: SecretChange = { _tag: "Unchanged" }
const equivalent = Schema.equivalence(SigninConfig)

/**
 * A config and a patch that decoded against the same schemas always merge into a config:
 * a failure here is a defect, not a refusal (value rules are validateSigninConfig's).
 */
const decodeMerged = Schema.decodeUnknownSync(SigninConfig)

const secretChange = (
  object: { readonly [key: string]: unknown } | null | undefined,
  key: string,
  isSet: boolean,
  stored: string | null | undefined
): SecretChange => {
  const value = object === null ? null : object?.[key]
  if (value === undefined) return unchanged
  if (value === null) return isSet ? { _tag: "Removed" } : unchanged
  if (typeof value !== "string" || (isSet && stored === value)) return unchanged
  return { _tag: "Set", value }
}

const isSetAfter = (change: SecretChange, before: boolean) =>
  change._tag === "Unchanged" ? before : change._tag === "Set"

/** The part of a patch that merges into the config: no version, secrets or read-only masks. */
const configPart = (patch: SigninConfigPatch): Record<string, unknown> => {
  const { expected_version: _version, idp_a, idp_b, ...rest } = patch
  const part: Record<string, unknown> = rest
  if (idp_a !== undefined) {
    part["idp_a"] = idp_a && (({ client_secret: _s, client_secret_set: _m, ...keep }) => keep)(idp_a)
  }
  if (idp_b !== undefined) {
    part["idp_b"] = idp_b && (({ private_key: _k, private_key_set: _m, ...keep }) => keep)(idp_b)
  }
  return part
}

/**
 * Applies a decoded patch to the current config. Resetting a whole idp object
 * with null removes its secret too. The result is not validated yet.
 */
export const applyPatch = (current: SigninConfig, patch: SigninConfigPatch, stored: StoredSecrets = {}): PatchResult => {
  const secrets: SecretChanges = {
    client_secret: secretChange(patch.idp_a, "client_secret", current.idp_a.client_secret_set, stored.client_secret),
    private_key: secretChange(patch.idp_b, "private_key", current.idp_b.private_key_set, stored.private_key)
  }
  const merged = decodeMerged(mergePatch(current, configPart(patch), defaultSigninConfig))
  const config: SigninConfig = {
    ...merged,
    idp_a: { ...merged.idp_a, client_secret_set: isSetAfter(secrets.client_secret, current.idp_a.client_secret_set) },
    idp_b: { ...merged.idp_b, private_key_set: isSetAfter(secrets.private_key, current.idp_b.private_key_set) }
  }
  const changed = !equivalent(current, config) ||
    secrets.client_secret._tag !== "Unchanged" || secrets.private_key._tag !== "Unchanged"
  return { config, secrets, changed }
}
