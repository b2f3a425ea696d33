// The API keys module's face: the only file of it that other modules and the app's wiring import.
export { AdminApiKeysService } from './api-keys-admin.service.ts';
export { apiKeysRoutes } from './api-keys.routes.ts';
export { ApiKeyVerifier, apiKeyNames, provisionWebApiKey } from './api-keys.service.ts';
