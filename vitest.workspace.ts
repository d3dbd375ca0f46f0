import { defineWorkspace } from "vitest/config"

// One project per package and app, plus the cross-service tests under test/.
export default defineWorkspace([
  "packages/*",
  "apps/*",
  {
    test: {
      name: "e2e",
      include: ["test/**/*.test.ts"],
      testTimeout: 60_000,
      hookTimeout: 120_000
    }
  }
])
