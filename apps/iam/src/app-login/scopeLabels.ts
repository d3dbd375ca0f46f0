/** How the permission list reads to a person; a scope without a label is shown as its name. */
const LABELS: Readonly<Record<string, string>> = {
  "identity": "Know who you are (your id)",
  "self.profile.read": "Read your profile (name and picture)",
  "self.organizations.read": "See the organizations you belong to",
  "self.trust.read": "Read your trust settings",
  "directory.*.read": "Read the directories of your organizations",
  "organization.trust.read": "Read your organizations' trust rules",
  "organization.invitations.read": "See your organizations' invitations",
  "organization.governance.read": "Read your organizations' governance",
  "organization.tags.read": "Read your organizations' tags"
}

export const scopeLabel = (scope: string): string => LABELS[scope] ?? scope
