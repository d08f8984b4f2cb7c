/**
 * Casbin model: RBAC with domains, one domain per organisation.
 *   p = subject, organisation, permission code   (role grants and user extras)
 *   g = user, role, organisation                  (role membership per organisation)
 * A subject also matches itself, so user extras are plain p rows on the user subject.
 * No allow-override: anything without a matching p row is denied.
 */
export const CASBIN_MODEL = `
[request_definition]
r = sub, dom, obj

[policy_definition]
p = sub, dom, obj

[role_definition]
g = _, _, _

[policy_effect]
e = some(where (p.eft == allow))

[matchers]
m = g(r.sub, p.sub, r.dom) && r.dom == p.dom && r.obj == p.obj
`;

export const userSubject = (userId: number): string => `user:${userId}`;
export const roleSubject = (roleId: number): string => `role:${roleId}`;
export const tokenSubject = (orgId: number): string => `org-token:${orgId}`;
export const orgDomain = (orgId: number): string => `org:${orgId}`;
