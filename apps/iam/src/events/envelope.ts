/**
 * The bodies IAM sends (decisions.md, "Webhooks"). Production: `{id, type, occurred_at, aggregate
 * {type, id, version}, data}`, or `tombstone {identity_uuids}` in place of `data` for a recipient
 * authorized only before the change. A test webhook gets one top-level `test` object
 * `{testing_key, metadata {event_id, type, occurred_at, aggregate}, data}` (spec 2).
 */
export interface EnvelopeEvent {
  readonly id: string
  readonly type: string
  readonly occurredAt: Date
  readonly aggregate: { readonly type: string; readonly id: string; readonly version: number }
}

export type Content =
  | { readonly _tag: "Data"; readonly data: unknown }
  | { readonly _tag: "Tombstone"; readonly identityUuids: ReadonlyArray<string> }

const contentOf = (content: Content) =>
  content._tag === "Data" ? { data: content.data } : { tombstone: { identity_uuids: content.identityUuids } }

export const productionBody = (event: EnvelopeEvent, content: Content): string =>
  JSON.stringify({
    id: event.id,
    type: event.type,
    occurred_at: event.occurredAt.toISOString(),
    aggregate: event.aggregate,
    ...contentOf(content)
  })

export const testBody = (testingKey: string, event: EnvelopeEvent, content: Content): string =>
  JSON.stringify({
    test: {
      testing_key: testingKey,
      metadata: { event_id: event.id, type: event.type, occurred_at: event.occurredAt.toISOString(), aggregate: event.aggregate },
      ...(content._tag === "Data" ? { data: content.data } : { data: null, tombstone: { identity_uuids: content.identityUuids } })
    }
  })
