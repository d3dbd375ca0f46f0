import { Schema } from "effect"
import type { AppRow } from "./AppRow.ts"

export const CarouselItem = Schema.Struct({
  url: Schema.String,
  kind: Schema.Literal("image", "video"),
  alt: Schema.String
}).annotations({ identifier: "CarouselItem" })

export const CustomLink = Schema.Struct({
  label: Schema.String,
  url: Schema.String,
  logo: Schema.NullOr(Schema.String)
}).annotations({ identifier: "CustomLink" })

export const AppLinks = Schema.Struct({
  website: Schema.NullOr(Schema.String),
  developer_docs: Schema.NullOr(Schema.String),
  android: Schema.NullOr(Schema.String),
  ios: Schema.NullOr(Schema.String),
  custom: Schema.Array(CustomLink)
}).annotations({ identifier: "AppLinks" })

export const AppAccessSettings = Schema.Struct({
  visibility: Schema.Literal("public", "private"),
  domains: Schema.Array(Schema.String),
  account_ids: Schema.Array(Schema.String).annotations({ description: "uuids of the accounts a private app admits" })
}).annotations({ identifier: "AppAccessSettings" })

/** An app as the registry shows it (spec 2: the fields named under Registry resources, plus its state and counts). */
export const App = Schema.Struct({
  app_id: Schema.String,
  name: Schema.String,
  description: Schema.NullOr(Schema.String),
  logo: Schema.NullOr(Schema.String),
  banner: Schema.NullOr(Schema.String),
  carousel: Schema.Array(CarouselItem),
  links: AppLinks,
  tags: Schema.Array(Schema.String),
  setup_step: Schema.Number.annotations({ description: "1 to 7" }),
  status: Schema.Literal("draft", "published"),
  visibility: Schema.Literal("public", "private"),
  administrator_uuid: Schema.String,
  rating: Schema.NullOr(Schema.Number),
  installs: Schema.Number,
  created_at: Schema.Date,
  updated_at: Schema.Date,
  published_at: Schema.NullOr(Schema.Date),
  access: Schema.NullOr(AppAccessSettings).annotations({ description: "Who a private app admits; shown to its authors only, null to others" })
}).annotations({ identifier: "App" })
export type App = typeof App.Type

const EMPTY_LINKS: typeof AppLinks.Type = { website: null, developer_docs: null, android: null, ios: null, custom: [] }

/** The app as `App`'s type from its row; `author` shows the access settings. */
export const appOf = (row: AppRow, author: boolean): typeof App.Type => ({
  app_id: row.app_id,
  name: row.name,
  description: row.description,
  logo: row.logo,
  banner: row.banner,
  carousel: (row.carousel ?? []) as typeof App.Type["carousel"],
  links: { ...EMPTY_LINKS, ...(row.links as Partial<typeof AppLinks.Type> | null) },
  tags: row.tags,
  setup_step: row.setup_step,
  status: row.status,
  visibility: row.visibility,
  administrator_uuid: row.administrator_uuid,
  rating: row.rating,
  installs: row.installs,
  created_at: row.created_at,
  updated_at: row.updated_at,
  published_at: row.published_at,
  access: author ? { visibility: row.visibility, domains: row.domains, account_ids: row.account_ids } : null
})
