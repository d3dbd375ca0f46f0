import { defineConfig } from "vitest/config"

// Options of the whole run (the projects are in vitest.workspace.ts, their shared options in vitest.shared.ts).
export default defineConfig({
  test: {
    // Two workers on two cores (Vitest's default is one less than the cores): tests wait on PostgreSQL and
    // on spawned processes as much as they compute.
    maxWorkers: 2,
    minWorkers: 1
  }
})
