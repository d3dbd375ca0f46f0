import { fileURLToPath } from "node:url"
import type { ViteUserConfig } from "vitest/config"

/** What every test project shares. */
export const sharedTestOptions = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  // Test files of a worker share their modules: loading the service's module graph once per worker
  // instead of once per file is most of the suite's time. Each file still builds its own layers, database
  // and server; the setup file undoes the one piece of shared state that leaked between files.
  isolate: false,
  setupFiles: [fileURLToPath(new URL("./packages/testkit/src/vitestSetup.ts", import.meta.url))]
} satisfies NonNullable<ViteUserConfig["test"]>
