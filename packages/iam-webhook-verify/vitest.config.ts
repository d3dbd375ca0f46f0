import { defineProject } from "vitest/config"
import { sharedTestOptions } from "../../vitest.shared.ts"

export default defineProject({
  test: {
    name: "iam-webhook-verify",
    include: ["test/**/*.test.ts"],
    ...sharedTestOptions
  }
})
