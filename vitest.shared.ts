import type { ViteUserConfig } from "vitest/config"

/** What every test project shares. */
export const sharedTestOptions = {
  testTimeout: 30_000,
  hookTimeout: 60_000
} satisfies NonNullable<ViteUserConfig["test"]>
