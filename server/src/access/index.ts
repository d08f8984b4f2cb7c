export { createAccess, type AccessOptions, type AccessService, type PasswordHasher } from './service';
export { createGuard } from './guard';
export { AuthStrategies, type AuthStrategy, type StrategyIdentity } from './auth-strategies';
export { buildCatalogue, narrowTree, type Catalogue, type PermissionNode } from './catalogue';
export { permissionCalls } from './permission-calls';
export { hashToken, newToken } from './sessions';
export { orgDomain, roleSubject, tokenSubject, userSubject } from './casbin-model';
