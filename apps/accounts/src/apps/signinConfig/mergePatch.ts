type Json = null | boolean | number | string | ReadonlyArray<Json> | { readonly [key: string]: Json }

const isObject = (value: unknown): value is { readonly [key: string]: Json } =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/**
 * Merges `patch` into `current`: objects merge key by key, arrays and plain
 * values replace, null puts back the value of `defaults`, absent keys stay.
 */
export const mergePatch = (current: unknown, patch: unknown, defaults: unknown): unknown => {
  if (patch === null) return defaults
  if (!isObject(patch) || !isObject(current)) return patch
  const merged: Record<string, unknown> = { ...current }
  for (const [key, value] of Object.entries(patch)) {
    merged[key] = mergePatch(current[key], value, isObject(defaults) ? defaults[key] : undefined)
  }
  return merged
}
