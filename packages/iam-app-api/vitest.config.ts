import { defineProject } from "vitest/config"
import { sharedTestOptions } from "../../vitest.shared.ts"

export default defineProject({
  test: {
    name: "iam-app-api",
    include: ["test/**/*.test.ts"],
    ...sharedTestOptions
  }
})
