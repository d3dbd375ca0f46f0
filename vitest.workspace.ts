import { defineWorkspace } from "vitest/config"
import { sharedTestOptions } from "./vitest.shared.ts"

// One project per package and app, plus the cross-service tests under test/.
export default defineWorkspace([
  "packages/*",
  "apps/*",
  {
    test: {
      name: "e2e",
      include: ["test/**/*.test.ts"],
      ...sharedTestOptions,
      testTimeout: 60_000,
      hookTimeout: 120_000
    }
  }
])
