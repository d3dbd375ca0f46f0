import { pageRequest, TimeAndId } from "@platform/http"
import { Effect, Layer } from "effect"
import { IamApi } from "../api.ts"
import { CurrentIdentity } from "../auth/CurrentIdentity.ts"
import { IamBearerLive } from "../auth/IamBearer.ts"
import { StepUpGuard } from "../auth/StepUpGuard.ts"
import { IamSessions } from "../sessions/IamSessions.ts"
import { Approvals } from "./Approvals.ts"
import { Tags } from "./Tags.ts"
import { Trust } from "./Trust.ts"
import { compiledGroup } from "@platform/service"

export const TagsHttpLive = compiledGroup(IamApi, "tags", (handlers) =>
  Effect.map(Tags, (tags) =>
    handlers
      .handle("list", ({ path }) => Effect.flatMap(CurrentIdentity, (actor) => tags.list(actor, path.organization_id)))
      .handle("create", ({ path, payload }) => Effect.flatMap(CurrentIdentity, (actor) => tags.create(actor, path.organization_id, payload)))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) => tags.update(actor, path.organization_id, path.tag_id, payload)))
      .handle("setMemberTags", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) => tags.setMemberTags(actor, path.organization_id, path.uuid, payload.tag_ids)))))

export const TrustHttpLive = compiledGroup(IamApi, "trust", (handlers) =>
  Effect.map(Trust, (trust) =>
    handlers
      .handle("read", ({ path }) => Effect.flatMap(CurrentIdentity, (actor) => trust.read(actor, path.organization_id)))
      .handle("setDefault", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) => trust.setDefault(actor, path.organization_id, payload.level)))
      .handle("createRule", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) => trust.createRule(actor, path.organization_id, payload)))
      .handle("readRule", ({ path }) => Effect.flatMap(CurrentIdentity, (actor) => trust.readRule(actor, path.organization_id, path.rule_id)))
      .handle("updateRule", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) => trust.updateRule(actor, path.organization_id, path.rule_id, payload)))
      .handle("archiveRule", ({ path }) =>
        Effect.flatMap(CurrentIdentity, (actor) => trust.archiveRule(actor, path.organization_id, path.rule_id)))))

export const ApprovalsHttpLive = compiledGroup(IamApi, "approvals", (handlers) =>
  Effect.gen(function*() {
    const approvals = yield* Approvals
    const stepUp = yield* StepUpGuard
    return handlers
      .handle("request", ({ path, payload }) => Effect.flatMap(CurrentIdentity, (actor) => approvals.request(actor, path.organization_id, payload)))
      .handle("list", ({ path, urlParams }) =>
        Effect.gen(function*() {
          const { after, limit } = yield* pageRequest(TimeAndId, urlParams)
          return yield* approvals.list(yield* CurrentIdentity, path.organization_id, limit, after)
        }))
      .handle("read", ({ path }) => Effect.flatMap(CurrentIdentity, (actor) => approvals.read(actor, path.organization_id, path.request_id)))
      .handle("decide", ({ path, payload }) =>
        Effect.flatMap(CurrentIdentity, (actor) =>
          approvals.decide(
            actor,
            path.organization_id,
            path.request_id,
            payload.decision,
            stepUp.spend({ action: "organization.authorization_change", resourceId: path.organization_id })
          )))
  }))

/** Tags, trust and approvals of organizations, for a bearer; leaves StepUpGuard to the composition root. */
export const GovernanceLive = Layer.mergeAll(TagsHttpLive, TrustHttpLive, ApprovalsHttpLive).pipe(
  Layer.provide([Tags.Default, Trust.Default, Approvals.Default, IamBearerLive]),
  Layer.provide(IamSessions.Default)
)
