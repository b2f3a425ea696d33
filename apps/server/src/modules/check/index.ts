// The check module's face: the only file of it that the app's wiring imports.
export { checkRoutes } from './check.routes.ts';
export { CheckService } from './check.service.ts';
