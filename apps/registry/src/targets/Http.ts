import { Effect, Layer } from "effect"
import { RegistryApi } from "../api.ts"
import { PackageRunner } from "./PackageRunner.ts"
import { targetList } from "./Targets.ts"
import { TargetsRepo } from "./TargetsRepo.ts"
import { compiledGroup } from "@platform/service"

export const TargetsLive = compiledGroup(RegistryApi, "targets", (handlers) =>
  Effect.gen(function*() {
    const repo = yield* TargetsRepo
    const runner = yield* PackageRunner
    return handlers.handle("list", ({ urlParams }) =>
      Effect.gen(function*() {
        const targets = yield* targetList("targets", urlParams.targets)
        const [populations, totals, runnable] = yield* Effect.all([
          repo.populations(targets),
          repo.totals(targets),
          runner.runnerTargets
        ])
        const population = new Map(populations.map((row) => [row.target, row.population]))
        return {
          items: targets.map((target) => ({
            target,
            population: population.get(target) ?? 0,
            runner_available: runnable.includes(target)
          })),
          total_population: totals.population,
          total_reach: totals.reach,
          source: "registered_accounts" as const
        }
      }))
  })).pipe(Layer.provide(TargetsRepo.Default), Layer.provide(PackageRunner.Default))
