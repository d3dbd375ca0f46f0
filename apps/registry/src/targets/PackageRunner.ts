import { detectRunner, runSandboxed, type SandboxCommand } from "@platform/sandbox"
import { Effect } from "effect"
import { RegistryConfig } from "../config.ts"
import { hostTarget, type Target } from "./Targets.ts"

/** Validations run at once in one process (the rest wait their turn): each runs up to three sandboxed commands. */
const CONCURRENT_VALIDATIONS = 2

/**
 * Where packages can be run: bubblewrap on this host (checked once, on first use, unless REGISTRY_SANDBOX=off),
 * and then only for the host's own target (linux-x64 here).
 */
export class PackageRunner extends Effect.Service<PackageRunner>()("registry/PackageRunner", {
  effect: Effect.gen(function*() {
    const { sandbox } = yield* RegistryConfig
    const limits = { timeoutMillis: sandbox.commandSeconds * 1000 }
    const host = hostTarget()
    const status = yield* Effect.cached(
      sandbox.mode === "off"
        ? Effect.succeed({ available: false, reason: "the sandbox is turned off (REGISTRY_SANDBOX=off)" } as const)
        : detectRunner
    )
    const permits = yield* Effect.makeSemaphore(CONCURRENT_VALIDATIONS)
    /** The targets whose packages can be run here: the host's, when bubblewrap works. */
    const runnerTargets: Effect.Effect<ReadonlyArray<Target>> = Effect.map(status, (answer) =>
      answer.available && host !== null ? [host] : [])
    return {
      runnerTargets,
      availableFor: (target: Target) => Effect.map(runnerTargets, (targets) => targets.includes(target)),
      /** Runs `validation` when a slot is free (at most CONCURRENT_VALIDATIONS at once). */
      exclusive: <A, E, R>(validation: Effect.Effect<A, E, R>) => permits.withPermits(1)(validation),
      /** One command in the sandbox, with the registry's limits (the sandbox's defaults, and the command's seconds). */
      run: (command: SandboxCommand) => runSandboxed({ ...command, limits: { ...limits, ...command.limits } })
    }
  })
}) {}
