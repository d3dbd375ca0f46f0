import { Command } from "@effect/cli"
import { runCli } from "@platform/service"
import { appsCommand } from "./cli/apps.ts"
import { carbonsCommand } from "./cli/carbons.ts"
import { keysCommand } from "./cli/keys.ts"
import { SERVICE_VERSION } from "./versions.ts"

/** `npm run accounts -- <command>`: operator commands of ../shared/CONTRACT.md. */
const accounts = Command.make("accounts").pipe(Command.withSubcommands([carbonsCommand, appsCommand, keysCommand]))

runCli(accounts, { name: "accounts", version: SERVICE_VERSION })
