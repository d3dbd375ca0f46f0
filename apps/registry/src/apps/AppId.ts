/**
 * An app id the registry gives out: 3 to 30 of a-z 0-9 - _, beginning with a letter or digit (accounts' rule
 * for a new app id, less a leading `-` or `_`, which a command line would read as an option).
 */
export const APP_ID = /^[a-z0-9][a-z0-9_-]{2,29}$/
export const APP_ID_RULE = "must be 3 to 30 characters of a-z 0-9 - _, beginning with a letter or digit"

export const isValidAppId = (appId: string): boolean => APP_ID.test(appId)

/**
 * How two ids are compared for look-alikes (SQL, for the generated column `apps.app_id_fold` and the probe):
 * `-` and `_` dropped; 0→o, 1→l, i→l, 5→s; rn→m, vv→w. Ids are lower case already.
 */
export const foldSql = (expression: string) =>
  `replace(replace(translate(${expression}, '01i5-_', 'olls'), 'rn', 'm'), 'vv', 'w')`
