// The health module's face: the only file of it that the app's wiring imports.
export { healthRoutes } from './health.routes.ts';
