import { Command } from "@effect/cli"
import { runCli } from "@platform/service"
import { keysCommand } from "./cli/keys.ts"
import { SERVICE_VERSION } from "./versions.ts"

/** `npm run registry -- <command>`: the registry's operator commands, on the server's settings and database (running or not). */
const registry = Command.make("registry").pipe(Command.withSubcommands([keysCommand]))

runCli(registry, { name: "registry", version: SERVICE_VERSION })
