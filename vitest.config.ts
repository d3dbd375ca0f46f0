import { defineConfig } from "vitest/config"

// Options of the whole run (the projects are in vitest.workspace.ts, their shared options in vitest.shared.ts).
export default defineConfig({
  test: {
    // Test files of one worker share their modules: importing Effect and a service once per worker, not once
    // per file, is most of the suite's time. Every test builds its own layers, so no state is shared by files.
    poolOptions: { forks: { isolate: false } },
    // Two workers on two cores (Vitest's default is one less than the cores): tests wait on PostgreSQL and
    // on spawned processes as much as they compute.
    maxWorkers: 2,
    minWorkers: 1
  }
})
