import { Command } from "@effect/cli"
import { runCli } from "@platform/service"
import { adminsCommand } from "./cli/admins.ts"
import { applicationsCommand } from "./cli/applications.ts"
import { bundlesCommand } from "./cli/bundles.ts"
import { organizationsCommand } from "./cli/organizations.ts"
import { SERVICE_VERSION } from "./versions.ts"

/** `npm run iam -- <command>`: IAM's operator commands, on the server's settings and database (running or not). */
const iam = Command.make("iam").pipe(Command.withSubcommands([organizationsCommand, applicationsCommand, bundlesCommand, adminsCommand]))

runCli(iam, { name: "iam", version: SERVICE_VERSION })
