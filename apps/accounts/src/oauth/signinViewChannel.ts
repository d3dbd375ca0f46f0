/** The channel on which the tables of the app sign-in view announce their changes. */
export const SIGNIN_VIEW_CHANNEL = "signin_views"
