/** The grant that exchanges an IAM short-lived login token (SLT) for an application session (parameter `slt`). */
export const SHORT_LIVED_TOKEN_GRANT = "urn:iam:params:oauth:grant-type:short-lived-token"
