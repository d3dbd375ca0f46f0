import { defineConfig } from "vitest/config"

// Options of the whole run (the projects are in vitest.workspace.ts, their shared options in vitest.shared.ts).
export default defineConfig({
  test: {
    // Two workers on two cores (Vitest's default is one less than the cores): tests wait on PostgreSQL and
    // on spawned processes as much as they compute. Each test file keeps its own module graph: with files
    // sharing modules, a TestClock test that ran after a test serving HTTP in the same worker found the live
    // clock (order-dependent; not understood yet), so isolation stays on.
    maxWorkers: 2,
    minWorkers: 1
  }
})
