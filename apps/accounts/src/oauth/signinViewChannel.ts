/**
 * The channel on which the tables of the app sign-in view announce their changes (signins, app_signins,
 * accounts, account_emails, account_phones, silicons, memberships, apps): a cache may follow it only
 * if every table it reads is one of them.
 */
export const SIGNIN_VIEW_CHANNEL = "signin_views"

/** Keys each per-process cache on that channel keeps: a busy server's recent sign-ins, a few hundred bytes each. */
export const SIGNIN_VIEW_CACHE_CAPACITY = 20_000
