/** What the login handoff reads of a registered application. */
export interface LoginApplication {
  readonly app_id: string
  readonly name: string
  /** Its permissions in effect (critical ones only once approved). */
  readonly app_scope: ReadonlyArray<string>
  readonly scope_version: number
  readonly consent_required: boolean
  /** Its registered callback URLs, in registration order. */
  readonly callback_urls: ReadonlyArray<string>
}
