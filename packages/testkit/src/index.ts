export * from "./freePort.ts"
export * from "./spawnService.ts"
