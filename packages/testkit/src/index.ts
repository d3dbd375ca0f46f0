export * from "./freePort.ts"
export * from "./spawnService.ts"
export * from "./tcpProxy.ts"
export * from "./smtpServer.ts"
