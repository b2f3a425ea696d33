// The auth module's face: the only file of it that other modules and the app's wiring import.
export { authRoutes } from './auth.routes.ts';
export { AuthService, checkSecretsKey, provisionJwtSecret } from './auth.service.ts';
export { hashPassword, verifyPassword } from './password.ts';
export { TokenSigner } from './tokens.ts';
export { usersRoutes } from './users.routes.ts';
export { AdminUsersService, alertRecipients, userLanguage, userNames } from './users.service.ts';
