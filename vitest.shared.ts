import type { ViteUserConfig } from "vitest/config"

/**
 * What every test project shares. Test files of a worker share one module graph (the root config
 * turns isolation off: importing Effect and a service's code once per worker instead of once per
 * file is most of the suite's time). Effect's packages are then loaded through Vitest rather than
 * by Node, so that a test file and the libraries it calls hold the same copy of `effect`: with two
 * copies, a file that runs after one that started an HTTP server finds its TestClock is not one.
 */
export const sharedTestOptions = {
  testTimeout: 30_000,
  hookTimeout: 60_000,
  server: { deps: { inline: [/effect/] } }
} satisfies NonNullable<ViteUserConfig["test"]>
