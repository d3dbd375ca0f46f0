import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

/**
 * The whole suite as one project: every package's and app's `test/`, and the cross-service tests under `test/`.
 * One project, not one per package: Vitest runs projects one after another, waits for a project's slowest file
 * before starting the next and starts fresh workers for each, which left a core idle and reloaded the module graph
 * two dozen times. Run part of it by path: `npx vitest run apps/iam`.
 */
export default defineConfig({
  test: {
    include: ["{apps,packages}/*/test/**/*.test.ts", "test/**/*.test.ts"],
    // Two workers on two cores (Vitest's default is one less than the cores): tests wait on PostgreSQL and
    // on spawned processes as much as they compute.
    maxWorkers: 2,
    minWorkers: 1,
    // Generous, for a busy two-core machine: the end-to-end tests under test/ start whole processes.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Test files of a worker share their modules: the module graph loads once per worker instead of once per
    // file. Each file still builds its own layers, database and server; the setup file undoes the one piece of
    // shared state that leaked between files.
    isolate: false,
    setupFiles: [fileURLToPath(new URL("./packages/testkit/src/vitestSetup.ts", import.meta.url))]
  }
})
