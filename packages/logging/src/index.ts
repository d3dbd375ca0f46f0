export * from "./JsonLogger.ts"
export * from "./LogLines.ts"
